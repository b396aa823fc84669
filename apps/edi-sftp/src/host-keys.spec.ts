import ssh2 from 'ssh2';
import { newEd25519KeyPair } from './host-keys.js';

describe('a new Ed25519 key pair', () => {
  it('reads back, private and public half, every time (ssh2 alone fails about one pair in 256)', () => {
    // Arrange: enough pairs that a generator failing one in 256 all but surely fails one of them
    const pairs = Array.from({ length: 3_000 }, () => newEd25519KeyPair());

    // Act
    const unreadable = pairs.filter(
      (pair) => ssh2.utils.parseKey(pair.private) instanceof Error || ssh2.utils.parseKey(pair.public) instanceof Error,
    );

    // Assert
    expect(unreadable).toEqual([]);
  });
});
