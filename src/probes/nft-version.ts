/** The host's nft (facts §1: kube-proxy assumes ≥ 1.0.1; 1.1.3 hosts crash older kube-proxy nft). */
import { parseNftVersion } from '../core/parse/nft-version.js';
import { failed, firstLine, toolFailure } from './common.js';
import { probeError, type Probe } from './types.js';

export const nftVersionProbe: Probe<string> = {
  id: 'nft-version',
  describe: 'the host nft version (nft --version)',
  argv: () => ['nft', '--version'],
  parse(result) {
    const failure = toolFailure(result, 'nft');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0) return failed(result, 'nft --version');
    return (
      parseNftVersion(result.stdout) ??
      probeError('unparsable', `nft --version printed no version ("${firstLine(result.stdout)}")`)
    );
  },
};
