import type { GroupResource } from '@kube/apimachinery';
import { restListerWatcher, SharedInformerFactory, type Controller, type ListerWatcher, type RestClient } from '@kube/client';
import type { CertificateAuthority } from '@kube/pki';
import type { EventRecorder } from './event.recorder';
import type { ResourceDiscovery } from './resource.discovery';

/** What every controller gets for one leadership term (kube's ControllerContext). */
export interface ControllerContext {
  client: RestClient;
  /** One factory for every controller of the term: one informer per resource, created from discovery. */
  informers: SharedInformerFactory;
  discovery: ResourceDiscovery;
  events: EventRecorder;
  /** The cluster CA certificate the root-CA publisher copies into every namespace (kube's --root-ca-file). */
  rootCaPem: string;
  /** The CA approved kube-apiserver-client CSRs are signed with (kube's --cluster-signing-cert-file/-key-file). */
  clusterSigningCa?: CertificateAuthority;
}

/** A controller the manager runs while it leads: `start` resolves once its first pass is done, `stop` ends it. */
export interface ManagedController {
  readonly name: string;
  /** Its work loop, when it has one: tests wait for a pass of a key with `controller.sync(key)`. */
  readonly controller?: Controller;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds a controller for a term; undefined when its configuration is missing (kube skips such controllers too). */
export type ControllerFactory = (ctx: ControllerContext) => ManagedController | undefined;

/**
 * Informers through the API for any resource discovery lists: the version is looked up at every (re)list, so an
 * informer follows a group whose preferred version changes.
 */
export function discoveryInformerFactory(client: RestClient, discovery: ResourceDiscovery): SharedInformerFactory {
  return new SharedInformerFactory((gr: GroupResource): ListerWatcher => {
    const target = (): ListerWatcher => {
      const r = discovery.resourceFor(gr);
      if (!r) throw new Error(`the server does not serve ${gr.resource}.${gr.group}`);
      return restListerWatcher(client, r);
    };
    return { list: () => target().list(), watch: (rv) => target().watch(rv) };
  });
}
