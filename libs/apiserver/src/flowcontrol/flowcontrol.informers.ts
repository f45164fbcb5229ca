import { Logger } from '@nestjs/common';
import type { GroupResource } from '@kube/apimachinery';
import type { SharedInformerFactory } from '@kube/client';
import type { FlowControl } from './flow-control';
import { FLOWCONTROL_GROUP, type FlowSchema, type PriorityLevelConfiguration } from './flowcontrol.types';

const logger = new Logger('FlowControl');

export const FLOW_SCHEMAS_RESOURCE: GroupResource = { group: FLOWCONTROL_GROUP, resource: 'flowschemas' };
export const PRIORITY_LEVELS_RESOURCE: GroupResource = { group: FLOWCONTROL_GROUP, resource: 'prioritylevelconfigurations' };

/**
 * Keeps a FlowControl configured from the FlowSchemas and PriorityLevelConfigurations core-api serves, through
 * the process's shared informers (kube's APF controller). Until both are listed the bootstrap objects stay in
 * use; a burst of changes is digested once.
 */
export function flowSchemasFromInformers(flowControl: FlowControl, informers: SharedInformerFactory): void {
  const schemas = informers.informerFor(FLOW_SCHEMAS_RESOURCE);
  const levels = informers.informerFor(PRIORITY_LEVELS_RESOURCE);
  let scheduled = false;
  const digest = (): void => {
    scheduled = false;
    if (!schemas.hasSynced() || !levels.hasSynced()) return;
    try {
      flowControl.configure(schemas.lister.list() as FlowSchema[], levels.lister.list() as PriorityLevelConfiguration[]);
    } catch (err) {
      // Stored objects were validated; should one still not digest, the previous configuration stays in force.
      logger.error(`API Priority and Fairness configuration not applied: ${(err as Error).message}`);
    }
  };
  const changed = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(digest);
  };
  const handler = { add: changed, update: changed, delete: changed };
  schemas.addEventHandler(handler);
  levels.addEventHandler(handler);
  // An empty list calls no handler: digest once both have synced anyway.
  void Promise.all([schemas.waitForSync(), levels.waitForSync()]).then(changed);
}
