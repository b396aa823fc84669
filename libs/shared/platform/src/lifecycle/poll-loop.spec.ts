import { PollLoop } from './poll-loop.js';

/** Long enough that only a wake can start the next pass within a test's time. */
const NEVER_MS = 600_000;

/** A pass that counts its runs, lets a test await the nth, and can be held open or made to fail. */
function countingPass() {
  let runs = 0;
  const waiting = new Map<number, () => void>();
  let hold: Promise<void> | undefined;
  let failing = false;
  return {
    get runs() {
      return runs;
    },
    run: async () => {
      runs += 1;
      waiting.get(runs)?.();
      await hold;
      if (failing) throw new Error(`pass ${runs} failed`);
    },
    /** Resolves once the nth pass has started. */
    started: (n: number) => (runs >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(n, resolve))),
    /** Holds every pass open until the returned release is called. */
    holdOpen: () => {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
    failFromNowOn: () => (failing = true),
  };
}

describe('the poll loop', () => {
  it('runs its pass again after each pause until stopped', async () => {
    // Arrange
    const pass = countingPass();
    const loop = new PollLoop(pass.run, { intervalMs: 1, onError: () => undefined });

    // Act
    loop.start();
    await pass.started(3);
    await loop.stop();

    // Assert
    const runsAtStop = pass.runs;
    expect(runsAtStop).toBeGreaterThanOrEqual(3);
    expect(loop.running).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pass.runs).toBe(runsAtStop);
  });

  it('when woken during its pause, runs the next pass at once', async () => {
    // Arrange
    const pass = countingPass();
    const loop = new PollLoop(pass.run, { intervalMs: NEVER_MS, onError: () => undefined });
    loop.start();
    await pass.started(1);

    // Act
    await new Promise((resolve) => setImmediate(resolve)); // the loop is pausing now
    loop.wake();

    // Assert
    await pass.started(2);
    expect(pass.runs).toBe(2);
    await loop.stop();
  });

  it('when woken during a pass, skips the next pause, so the wake is not lost', async () => {
    // Arrange
    const pass = countingPass();
    const release = pass.holdOpen();
    const loop = new PollLoop(pass.run, { intervalMs: NEVER_MS, onError: () => undefined });
    loop.start();
    await pass.started(1);

    // Act
    loop.wake();
    release();

    // Assert
    await pass.started(2);
    expect(pass.runs).toBe(2);
    await loop.stop();
  });

  it('reports a failing pass at most once per errorEveryMs and goes on polling', async () => {
    // Arrange
    const pass = countingPass();
    pass.failFromNowOn();
    const reported: unknown[] = [];
    const loop = new PollLoop(pass.run, {
      intervalMs: 1,
      errorEveryMs: NEVER_MS,
      onError: (error) => reported.push(error),
    });

    // Act
    loop.start();
    await pass.started(4);
    await loop.stop();

    // Assert
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('pass 1 failed');
  });

  it('reports errors given to reportError under the same throttle as failed passes', () => {
    // Arrange
    const reported: unknown[] = [];
    const loop = new PollLoop(async () => undefined, {
      intervalMs: NEVER_MS,
      errorEveryMs: NEVER_MS,
      onError: (error) => reported.push(error),
    });

    // Act
    loop.reportError(new Error('listener lost'));
    loop.reportError(new Error('listener lost again'));

    // Assert
    expect(reported.map((error) => (error as Error).message)).toEqual(['listener lost']);
  });

  it('on stop, lets the pass in progress finish and starts no other', async () => {
    // Arrange
    const pass = countingPass();
    const release = pass.holdOpen();
    const loop = new PollLoop(pass.run, { intervalMs: 1, onError: () => undefined });
    loop.start();
    await pass.started(1);

    // Act
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    const stoppedWhileHeld = stopped;
    release();
    await stopping;

    // Assert
    expect(stoppedWhileHeld).toBe(false);
    expect(pass.runs).toBe(1);
  });
});
