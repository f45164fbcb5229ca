import type { GroupVersion } from '@kube/apimachinery';
import type { ResourceDefinition } from '../resource.definition';
import { collectSchemas } from './openapi.components';
import type { OpenApiInfo, OpenApiV3Document, PathItemV3 } from './openapi-document.types';
import { resourcePaths } from './openapi.paths';

export const OPENAPI_INFO: OpenApiInfo = { title: 'Kubernetes', version: 'unversioned' };

/**
 * The OpenAPI 3.0 document of one group/version, shaped like kube-apiserver's /openapi/v3/api/v1 and
 * /openapi/v3/apis/<group>/<version>: an operation per verb (with x-kubernetes-action and
 * x-kubernetes-group-version-kind, which kubectl matches on) and the schemas those operations reference.
 * Resources of other group/versions are ignored.
 */
export function buildOpenApiV3(groupVersion: GroupVersion, resources: readonly ResourceDefinition[]): OpenApiV3Document {
  const served = resources.filter((r) => r.group === groupVersion.group && r.version === groupVersion.version);
  return {
    openapi: '3.0.0',
    info: { ...OPENAPI_INFO },
    paths: sortedPaths(served.map(resourcePaths)),
    components: { schemas: collectSchemas(served) },
  };
}

/** Merges path maps and sorts them, as kube does, so equal resource sets give byte-identical documents. */
function sortedPaths(pathMaps: ReadonlyArray<Record<string, PathItemV3>>): Record<string, PathItemV3> {
  const entries = pathMaps.flatMap((paths) => Object.entries(paths));
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
