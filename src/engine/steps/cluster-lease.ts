/**
 * Takes the cluster lock before the first write: one mutating run per cluster. A lock someone
 * else holds refuses the run (nothing was written); the holder is named so a person can look.
 */
import { refusal, type StepExecutor } from '../step-context.js';

export const takeClusterLock: StepExecutor = async (ctx) => {
  const taken = await ctx.lock.acquire();
  if (!taken.ok) {
    return refusal(
      `the cluster lock is held by ${taken.holder}; one mutating run per cluster (\`proxy-migrate status ${ctx.state().cluster}\` shows it)`,
    );
  }
  await ctx.record({ lockTaken: true });
  return {
    ok: true,
    note:
      taken.tookOverFrom === undefined
        ? 'taken'
        : `taken over from ${taken.tookOverFrom} (expired)`,
  };
};
