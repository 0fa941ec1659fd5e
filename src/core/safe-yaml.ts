/**
 * YAML that kube-proxy reads back as written. kube-proxy decodes its --config file through
 * sigs.k8s.io/yaml, a YAML 1.1 reader: a bare `yes`, `on`, `y` or `0644` comes back as a bool or an
 * octal int and the file fails to load, so strings are quoted wherever YAML 1.1 reads them otherwise.
 */
import { Document, visit, type ToStringOptions } from 'yaml';

export type Dict = Record<string, unknown>;

/** A YAML mapping: not null, not a list. */
export function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./=-]*$/;
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const RESERVED = /^(y|n|yes|no|true|false|on|off|null|~)$/i;

// No folding (a long value stays on one line, so diffs stay line-for-line); multi-line strings as
// `|` blocks, as ConfigMaps are written by hand.
const OUTPUT: ToStringOptions = { lineWidth: 0, blockQuote: 'literal' };

function document(value: unknown): Document {
  // The YAML 1.1 schema: the yaml package then quotes every string a 1.1 reader would retype.
  return new Document(value, { version: '1.1' });
}

/**
 * Manifests and kube-proxy configuration files: the yaml package's own YAML 1.1 quoting, nothing
 * more, so a rewritten configuration differs from the original only where its values do.
 */
export function manifestYaml(value: unknown): string {
  const doc = document(value);
  // YAML allows a plain `::/0`, but libyaml-derived readers (go-yaml v2) have been strict about a
  // leading `:` or `?`; quoting those costs nothing and `nodePortAddresses` is where they occur.
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && /^[:?]/.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString(OUTPUT);
}

/**
 * Snippets people paste into their own files (findings' commands): key order as given, stable, and
 * every string double-quoted unless it is a plain word or a duration, whatever the reader's YAML.
 */
export function toYaml(value: Dict, options: { flow?: boolean } = {}): string {
  const doc = document(value);
  visit(doc, {
    Scalar(_key, node) {
      const text = node.value;
      if (typeof text !== 'string') return;
      if (!(PLAIN.test(text) || DURATION.test(text)) || RESERVED.test(text)) {
        node.type = 'QUOTE_DOUBLE';
      }
    },
  });
  // Flow lists for a snippet quoted inside a sentence: `key: ["a", "b"]`, on one line.
  if (options.flow === true) {
    visit(doc, {
      Seq(_key, node) {
        node.flow = true;
      },
    });
  }
  const style: ToStringOptions = { ...OUTPUT, flowCollectionPadding: false };
  return doc.toString(style).replace(/\n$/, '');
}
