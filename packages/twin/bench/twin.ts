// Twin at scale: load the generated 5,000-node / 20,000-Service scenario, boot its kube-proxy
// pods, then time 500-item pages and report peak RSS. Prints figures; asserts nothing (speed
// targets live here, not in tests that would flake on a loaded machine).
//   npx tsx bench/twin.ts [scenario] [--no-controllers]
import { startTwin } from '../src/index.js';

const scenario = process.argv.find((a, i) => i > 1 && !a.startsWith('--')) ?? 'large-generated';
const controllers = !process.argv.includes('--no-controllers');

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

const started = performance.now();
const twin = await startTwin({ scenario, controllers });
const booted = performance.now();

async function page(
  path: string,
  cont?: string,
): Promise<{ ms: number; items: number; next?: string }> {
  const url = `${twin.url}${path}?limit=500${cont === undefined ? '' : `&continue=${encodeURIComponent(cont)}`}`;
  const t = performance.now();
  const body = (await (await fetch(url)).json()) as {
    items: unknown[];
    metadata: { continue?: string };
  };
  return {
    ms: performance.now() - t,
    items: body.items.length,
    ...(body.metadata.continue ? { next: body.metadata.continue } : {}),
  };
}

async function pageAll(path: string): Promise<{ pages: number; items: number; times: number[] }> {
  const times: number[] = [];
  let items = 0;
  let cont: string | undefined;
  do {
    const p = await page(path, cont);
    times.push(p.ms);
    items += p.items;
    cont = p.next;
  } while (cont !== undefined);
  return { pages: times.length, items, times };
}

const pct = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

const nodes = await pageAll('/api/v1/nodes');
const services = await pageAll('/api/v1/services');
const pods = await pageAll('/api/v1/pods');
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);

const fmt = (n: number): string => n.toFixed(1);
console.log(`scenario           ${scenario} (controllers ${controllers ? 'on' : 'off'})`);
console.log(`load + boot        ${fmt(booted - started)} ms`);
for (const [name, r] of [
  ['nodes', nodes],
  ['services', services],
  ['pods', pods],
] as const) {
  console.log(
    `${name.padEnd(18)} ${r.items} items in ${r.pages} pages: p50 ${fmt(pct(r.times, 0.5))} ms, p95 ${fmt(pct(r.times, 0.95))} ms, max ${fmt(Math.max(...r.times))} ms`,
  );
}
console.log(`peak RSS           ${fmt(peakRss / 1024 / 1024)} MiB`);
await twin.close();
