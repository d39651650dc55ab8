/**
 * The order names are shown in (tags): as people sort them, numbers by value ("tag 2" before
 * "tag 10"), the same on both engines (a database's collation differs between installs).
 */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
