/** The kernel the host runs now (`status.nodeInfo.kernelVersion` is what kubelet saw at start). */
import { failed, firstLine, toolFailure } from './common.js';
import { probeError, type Probe } from './types.js';

export const unameProbe: Probe<string> = {
  id: 'uname-r',
  describe: 'the running kernel (uname -r): nftables mode needs 5.13 or later',
  argv: () => ['uname', '-r'],
  parse(result) {
    const failure = toolFailure(result, 'uname');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0) return failed(result, 'uname -r');
    const kernel = firstLine(result.stdout);
    return /^\d+\.\d+/.test(kernel)
      ? kernel
      : probeError('unparsable', `uname -r printed no kernel version ("${kernel}")`);
  },
};
