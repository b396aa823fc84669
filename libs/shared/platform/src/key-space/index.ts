export { KeySpaceClaim, KeySpaceTaken, claimKey, type KeySpaceCheck } from './key-space-claim.js';
export { claimKeySpaceAtStart } from './claim-at-start.js';
