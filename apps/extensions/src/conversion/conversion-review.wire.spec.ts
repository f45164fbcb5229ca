/**
 * ConversionReview on the wire: k8s.io/apiextensions-apiserver apiextensions/v1's JSON names (request: uid,
 * desiredAPIVersion, objects; response: uid, convertedObjects, result — a metav1.Status, `result` here unlike
 * AdmissionResponse's `status`), with answers shaped as the upstream documentation's examples.
 */
import { describe, expect, it } from 'vitest';
import { conversionReview, convertedObjectsOf } from './conversion-review';

const UID = '705ab4f5-6393-11e8-b7cc-42010a800002';

describe('ConversionReview apiextensions.k8s.io/v1', () => {
  it('sends a request with ConversionRequest\'s JSON names only', () => {
    const review = JSON.parse(JSON.stringify(conversionReview('v1', { uid: UID, desiredAPIVersion: 'example.com/v1', objects: [{ apiVersion: 'example.com/v1beta1', kind: 'CronTab', metadata: { name: 'a' } }] }))) as Record<string, Record<string, unknown>>;
    expect(Object.keys(review).sort()).toEqual(['apiVersion', 'kind', 'request']);
    expect(Object.keys(review.request).sort()).toEqual(['desiredAPIVersion', 'objects', 'uid']);
  });

  it('reads convertedObjects after a Success result, and a failure\'s message from result', () => {
    const success = JSON.parse(`{
      "apiVersion": "apiextensions.k8s.io/v1",
      "kind": "ConversionReview",
      "response": {
        "uid": "${UID}",
        "result": { "status": "Success" },
        "convertedObjects": [
          { "kind": "CrontabSet", "apiVersion": "example.com/v1", "metadata": { "name": "local-crontab", "namespace": "default", "uid": "143" }, "host": "localhost", "port": "1234" }
        ]
      }
    }`) as unknown;
    expect(convertedObjectsOf('v1', UID, success)).toEqual([expect.objectContaining({ kind: 'CrontabSet', host: 'localhost', port: '1234' })]);
    const failed = JSON.parse(`{
      "apiVersion": "apiextensions.k8s.io/v1",
      "kind": "ConversionReview",
      "response": { "uid": "${UID}", "result": { "status": "Failed", "message": "hostPort could not be parsed into a separate host and port" } }
    }`) as unknown;
    expect(() => convertedObjectsOf('v1', UID, failed)).toThrow('hostPort could not be parsed into a separate host and port');
  });
});
