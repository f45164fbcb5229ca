/**
 * Kube-aware version ordering (k8s.io/apimachinery/pkg/version/helpers.go): GA before beta before alpha,
 * then higher major first, then higher minor first; versions that are not kube-like ("foo", "v1.1") come
 * after all kube-like ones, in alphabetical order. Used to pick the preferred version of a group.
 */

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Larger ranks are preferred. */
const STABILITY_RANK = { alpha: 0, beta: 1, ga: 2 } as const;

interface KubeVersion {
  major: number;
  stability: keyof typeof STABILITY_RANK;
  minor: number;
}

function parseKubeVersion(v: string): KubeVersion | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  const stability = (m[2] as 'alpha' | 'beta' | undefined) ?? 'ga';
  const major = Number(m[1]);
  const minor = stability === 'ga' ? 0 : Number(m[3]);
  // Go's strconv.Atoi rejects numbers that overflow an int, which makes the version non-kube-like.
  if (!Number.isSafeInteger(major) || !Number.isSafeInteger(minor)) return undefined;
  return { major, stability, minor };
}

/** True for "v1", "v2beta3", "v1alpha1"; false for "v1.1", "version1", "v1beta". */
export function isKubeVersion(v: string): boolean {
  return parseKubeVersion(v) !== undefined;
}

/**
 * An Array.sort comparator that puts the most preferred version first:
 * ["v1alpha1", "foo", "v2", "v1beta2", "v1"].sort(compareKubeVersions) → ["v2", "v1", "v1beta2", "v1alpha1", "foo"].
 * It is the negation of kube's CompareKubeAwareVersionStrings (which returns > 0 when a is preferred).
 */
export function compareKubeVersions(a: string, b: string): number {
  return -compareKubeAwareVersionStrings(a, b);
}

/** kube's CompareKubeAwareVersionStrings: > 0 when a is preferred over b, < 0 when b is. */
export function compareKubeAwareVersionStrings(a: string, b: string): number {
  if (a === b) return 0;
  const va = parseKubeVersion(a);
  const vb = parseKubeVersion(b);
  if (!va && !vb) return a < b ? 1 : -1; // strings.Compare(b, a): alphabetical order is preferred order
  if (!va) return -1;
  if (!vb) return 1;
  if (va.stability !== vb.stability) return STABILITY_RANK[va.stability] - STABILITY_RANK[vb.stability];
  if (va.major !== vb.major) return va.major - vb.major;
  return va.minor - vb.minor;
}
