import { describe, expect, it } from 'vitest';
import { isStatusError, type JsonValue } from '@kube/apimachinery';
import { decodeDeleteOptions, isDryRun } from './delete.options';

const q = (s = ''): URLSearchParams => new URLSearchParams(s);

function refusal(body: JsonValue | undefined, query = ''): { code: number; message: string } {
  try {
    decodeDeleteOptions(body, q(query));
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, message: err.status.message ?? '' };
    throw err;
  }
  throw new Error('accepted');
}

describe('decodeDeleteOptions (a DELETE\'s options, as kube\'s delete handler reads them)', () => {
  it('takes the dry run from the body, as kubectl --dry-run=server sends it, or from the query', () => {
    const fromBody = decodeDeleteOptions({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', dryRun: ['All'] }, q());
    expect(fromBody).toMatchObject({ propagationPolicy: 'Background', dryRun: ['All'] });
    expect(isDryRun(fromBody)).toBe(true);
    expect(isDryRun(decodeDeleteOptions(undefined, q('dryRun=All')))).toBe(true);
    // Either place is enough: a dry run is never taken for a real delete.
    expect(isDryRun(decodeDeleteOptions({ propagationPolicy: 'Foreground' }, q('dryRun=All')))).toBe(true);
    expect(decodeDeleteOptions({ dryRun: ['All'] }, q('dryRun=All')).dryRun).toEqual(['All']);
    expect(isDryRun(decodeDeleteOptions({ kind: 'DeleteOptions', dryRun: [] }, q()))).toBe(false);
    expect(isDryRun(decodeDeleteOptions(undefined, q()))).toBe(false);
  });

  it('refuses a dryRun other than All with kube\'s 422 on DeleteOptions, wherever it comes from', () => {
    const message = 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Bogus"]: supported values: "All"';
    expect(refusal({ dryRun: ['Bogus'] })).toEqual({ code: 422, message });
    expect(refusal(undefined, 'dryRun=Bogus')).toEqual({ code: 422, message });
    expect(refusal({ dryRun: ['All', 'Bogus'] }).message).toBe('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["All","Bogus"]: supported values: "All"');
  });

  it('refuses a propagationPolicy kube does not know, and orphanDependents with a propagationPolicy (ValidateDeleteOptions)', () => {
    expect(refusal(undefined, 'propagationPolicy=Sideways')).toEqual({ code: 422, message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"' });
    expect(refusal({ orphanDependents: true, propagationPolicy: 'Orphan' }).message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
  });

  it('refuses a body Go would not decode into DeleteOptions with the decoder\'s 400', () => {
    expect(refusal({ dryRun: 'All' })).toEqual({ code: 400, message: 'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string' });
    expect(refusal({ dryRun: [1] }).message).toBe('json: cannot unmarshal number into Go struct field DeleteOptions.dryRun of type string');
    expect(refusal({ gracePeriodSeconds: '30' }).message).toBe('json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
    expect(refusal({ gracePeriodSeconds: 1.5 }).message).toBe('json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
    expect(refusal({ preconditions: { uid: 7 } }).message).toBe('json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID');
    expect(refusal({ orphanDependents: 'yes' }).message).toBe('json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool');
    expect(refusal({ propagationPolicy: {} }).message).toBe('json: cannot unmarshal object into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation');
    expect(refusal(['All']).message).toMatch(/^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct \{ APIVersion string/);
  });

  it('leaves out what a JSON null leaves unset, and takes the query\'s grace period and propagation on top', () => {
    expect(decodeDeleteOptions({ dryRun: null, propagationPolicy: null, gracePeriodSeconds: 5 }, q('propagationPolicy=Orphan'))).toEqual({ gracePeriodSeconds: 5, propagationPolicy: 'Orphan' });
    expect(decodeDeleteOptions(undefined, q('gracePeriodSeconds=0&orphanDependents=false'))).toEqual({ gracePeriodSeconds: 0, orphanDependents: false });
  });
});
