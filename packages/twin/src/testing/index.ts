// Helpers for tests that drive a twin: the real kubectl with a private HOME, and a bounded poll.
export { kubectlOk, kubectlWith, rows } from './kubectl.js';
export type { Kubectl, KubectlOptions, KubectlResult } from './kubectl.js';
export { eventually } from './wait.js';
