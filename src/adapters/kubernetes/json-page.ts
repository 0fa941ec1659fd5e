/**
 * One list page as plain JSON, through client-node's own request pipeline (its auth, TLS agent,
 * User-Agent and our deadline and rate-limit middleware all still run), but not through its
 * model classes. client-node deserialises every item into class instances, which we then had to
 * turn back into the API's JSON shape: three copies of each page alive at once. On 5,000 nodes,
 * 20,000 Services and 5,000 hostNetwork pods that was most of the bot's peak memory
 * (bench/preflight). The SDK has no raw-JSON option, so this is the `httpApi` it lets a call
 * replace (ConfigurationOptions.httpApi): the real fetch library sends the request, a successful
 * body is parsed here once, each item is trimmed and filtered as it comes, and the SDK is handed
 * an empty list to deserialise. Error responses pass through untouched, so ApiException, its
 * status code and body, and every retry and error mapping built on them stay as they were.
 */
import {
  IsomorphicFetchHttpLibrary,
  ResponseContext,
  SelfDecodingBody,
  wrapHttpLibrary,
  type ConfigurationOptions,
  type HttpLibrary,
} from '@kubernetes/client-node';

const fetchLibrary = new IsomorphicFetchHttpLibrary();

/** What a page's item becomes as it arrives; undefined drops it (the page never holds it). */
export type KeepItem<T> = (item: T) => T | undefined;

/**
 * Fields no check reads that are a large share of an object's bytes: managedFields (half of a
 * Pod) and a Node's image list (often 50 entries on a real node; the twin sends none).
 */
function trim(item: Record<string, unknown>, listKind: string | undefined): void {
  const metadata = item['metadata'] as Record<string, unknown> | undefined;
  if (metadata !== undefined) delete metadata['managedFields'];
  // A list's items carry no kind of their own on the wire: the list's kind says what they are.
  if (listKind === 'NodeList') {
    const status = item['status'] as Record<string, unknown> | undefined;
    if (status !== undefined) delete status['images'];
  }
}

export class JsonPage<T> {
  private items: T[] = [];
  private continueToken: string | undefined;
  private received = false;

  constructor(private readonly keep?: KeepItem<T>) {}

  /** Options for one list call: `base` (deadline, gate, observer) plus the capturing httpApi. */
  options(base: ConfigurationOptions): ConfigurationOptions {
    return { ...base, httpApi: this.httpApi };
  }

  /** The page's items, once the call that used options() has resolved. */
  take(): { items: T[]; metadata: { _continue?: string } } {
    if (!this.received) throw new Error('JsonPage.take() before the list call returned a page');
    return {
      items: this.items,
      metadata: this.continueToken === undefined ? {} : { _continue: this.continueToken },
    };
  }

  private readonly httpApi: HttpLibrary = wrapHttpLibrary({
    send: async (request) => {
      const response = await fetchLibrary.send(request).toPromise();
      if (response.httpStatusCode < 200 || response.httpStatusCode > 299) return response;
      const list = JSON.parse(await response.body.text()) as {
        kind?: string;
        apiVersion?: string;
        items?: unknown[] | null;
        metadata?: { continue?: string; resourceVersion?: string };
      };
      const items: T[] = [];
      for (const raw of list.items ?? []) {
        if (raw === null || typeof raw !== 'object') continue;
        trim(raw as Record<string, unknown>, list.kind);
        const kept = this.keep === undefined ? (raw as T) : this.keep(raw as T);
        if (kept !== undefined) items.push(kept);
      }
      this.items = items;
      this.continueToken = list.metadata?.continue || undefined;
      this.received = true;
      const empty = JSON.stringify({
        kind: list.kind,
        apiVersion: list.apiVersion,
        metadata: list.metadata ?? {},
        items: [],
      });
      return new ResponseContext(
        response.httpStatusCode,
        response.headers,
        new SelfDecodingBody(Promise.resolve(Buffer.from(empty))),
      );
    },
  });
}
