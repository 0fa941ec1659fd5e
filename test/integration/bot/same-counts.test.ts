// Slack and the terminal read the same cluster through the same clusters file (pools from its
// poolLabel) and must report the same counts: a team comparing the two sees one truth.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { cliIn } from '../../helpers/cli.js';

let h: BotHarness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('the same pre-flight in Slack and in a terminal', () => {
  it.each(['kubeadm-ipvs', 'traps'])(
    'reports the same counts and pools on %s',
    async (scenario) => {
      h = await startHarness({ scenario });
      await h.command('preflight cluster-a', { responseId: 'pf' });
      const queued = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'pf'));
      const runId = /run (pf-[a-z0-9-]+)/.exec(JSON.stringify(queued.body))?.[1];
      expect(runId).toBeDefined();
      const run = await h.bot.runs.waitFor(runId!, 30_000);
      expect(run.outcome).toBe('verified');
      const card = h.fake.messages.find((m) => m.ts === run.facts['cardTs']);
      const cardText = JSON.stringify(card?.blocks);

      const terminal = cliIn(h.dir, { CLUSTERS_FILE: join(h.dir, 'clusters.yaml') });
      const result = await terminal.run('preflight', 'cluster-a', '-o', 'json');
      const report = JSON.parse(result.stdout) as {
        summary: Record<'block' | 'warn' | 'info' | 'pass', number>;
        pools: { name: string; nodes: string[] }[];
      };
      // The card shows the terminal's counts, and the run the bot saved has the terminal's pools.
      const s = report.summary;
      expect(cardText).toContain(`:no_entry: ${s.block} blocker`);
      expect(cardText).toContain(`:warning: ${s.warn} warning`);
      expect(cardText).toContain(`:information_source: ${s.info} note`);
      expect(cardText).toContain(`:white_check_mark: ${s.pass} passed`);
      const saved = run.facts['report'] as typeof report;
      expect(saved.summary).toEqual(s);
      expect(saved.pools).toEqual(report.pools);
      expect(report.pools.length).toBeGreaterThan(1);
    },
  );
});
