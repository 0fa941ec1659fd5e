// A sorted array of object keys per resource, so a page of 500 starts with a binary search instead
// of sorting thousands of objects per request. Keys compare as the real apiserver's etcd keys do.

export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] ?? '') < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function upperBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] ?? '') <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function insertSorted(keys: string[], key: string): void {
  const at = lowerBound(keys, key);
  if (keys[at] !== key) keys.splice(at, 0, key);
}

export function removeSorted(keys: string[], key: string): void {
  const at = lowerBound(keys, key);
  if (keys[at] === key) keys.splice(at, 1);
}

export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
