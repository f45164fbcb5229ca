"""Drives kube-ts with the official Kubernetes Python client (Debian's python3-kubernetes).

Usage: client_e2e.py <kubeconfig> <namespace>. Prints one JSON object with what the client observed; the
vitest test (python-client.e2e.test.ts) asserts on it. Any unexpected exception exits non-zero.
"""
import json
import sys
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

kubeconfig, ns = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
core = client.CoreV1Api()
ext = client.ApiextensionsV1Api()
custom = client.CustomObjectsApi()
report = {}


def api_error(fn):
    try:
        fn()
    except ApiException as e:
        body = json.loads(e.body) if e.body else {}
        return {"status": e.status, "reason": body.get("reason", e.reason), "message": body.get("message")}
    return None


def cm(name, labels=None, data=None):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name, labels=labels or {}), data=data or {"k": "v"})


# CRUD
created = core.create_namespaced_config_map(ns, cm("py-crud"))
read = core.read_namespaced_config_map("py-crud", ns)
read.data["k"] = "v2"
replaced = core.replace_namespaced_config_map("py-crud", ns, read)
patched = core.patch_namespaced_config_map("py-crud", ns, {"data": {"extra": "1"}})
report["crud"] = {
    "created_rv": created.metadata.resource_version,
    "uid_stable": created.metadata.uid == patched.metadata.uid,
    "replaced_data": replaced.data,
    "patched_data": patched.data,
}

# Conflicts: a stale resourceVersion, and a name that exists.
stale = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-crud", resource_version=created.metadata.resource_version), data={"k": "stale"})
report["conflict"] = api_error(lambda: core.replace_namespaced_config_map("py-crud", ns, stale))
report["already_exists"] = api_error(lambda: core.create_namespaced_config_map(ns, cm("py-crud")))
core.delete_namespaced_config_map("py-crud", ns)
report["deleted_get"] = api_error(lambda: core.read_namespaced_config_map("py-crud", ns))

# Selectors
for name, tier in (("py-a", "web"), ("py-b", "web"), ("py-c", "db")):
    core.create_namespaced_config_map(ns, cm(name, {"tier": tier, "suite": "py"}))
by_label = core.list_namespaced_config_map(ns, label_selector="tier=web")
by_set = core.list_namespaced_config_map(ns, label_selector="suite=py,tier in (db)")
by_field = core.list_namespaced_config_map(ns, field_selector="metadata.name=py-b")
report["selectors"] = {
    "label": sorted(i.metadata.name for i in by_label.items),
    "set": sorted(i.metadata.name for i in by_set.items),
    "field": [i.metadata.name for i in by_field.items],
}

# Pagination
first = core.list_namespaced_config_map(ns, label_selector="suite=py", limit=2)
second = core.list_namespaced_config_map(ns, label_selector="suite=py", limit=2, _continue=first.metadata._continue)
report["pages"] = {
    "first": [i.metadata.name for i in first.items],
    "has_continue": bool(first.metadata._continue),
    "remaining": first.metadata.remaining_item_count,
    "second": [i.metadata.name for i in second.items],
    "second_continue": second.metadata._continue,
}

# Watch from now (the resourceVersion of a list), and from an older resourceVersion.
now = core.list_namespaced_config_map(ns).metadata.resource_version
core.create_namespaced_config_map(ns, cm("py-w1", {"suite": "watch"}))
core.patch_namespaced_config_map("py-w1", ns, {"data": {"k": "changed"}})
core.delete_namespaced_config_map("py-w1", ns)
events = []
for ev in watch.Watch().stream(core.list_namespaced_config_map, ns, label_selector="suite=watch", resource_version=now, timeout_seconds=2):
    events.append([ev["type"], ev["object"].metadata.name, (ev["object"].data or {}).get("k")])
report["watch_from_rv"] = events
initial = []
for ev in watch.Watch().stream(core.list_namespaced_config_map, ns, label_selector="suite=py", timeout_seconds=1):
    initial.append([ev["type"], ev["object"].metadata.name])
report["watch_initial"] = sorted(initial)

# Dry run
dry = core.create_namespaced_config_map(ns, cm("py-dry"), dry_run="All")
report["dry_run"] = {"name": dry.metadata.name, "has_uid": bool(dry.metadata.uid), "stored": api_error(lambda: core.read_namespaced_config_map("py-dry", ns))}

# A CRD and custom objects
crd = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.py.example.com"},
    "spec": {
        "group": "py.example.com",
        "scope": "Namespaced",
        "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
        "versions": [{
            "name": "v1", "served": True, "storage": True,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer", "minimum": 1}}}}}},
        }],
    },
}
ext.create_custom_resource_definition(crd)
established = False
for _ in range(150):
    conds = ext.read_custom_resource_definition("widgets.py.example.com").status.conditions or []
    if any(c.type == "Established" and c.status == "True" for c in conds):
        established = True
        break
    time.sleep(0.2)
widget = {"apiVersion": "py.example.com/v1", "kind": "Widget", "metadata": {"name": "w1"}, "spec": {"size": 3}}
for _ in range(50):
    try:
        custom.create_namespaced_custom_object("py.example.com", "v1", ns, "widgets", widget)
        break
    except ApiException as e:
        if e.status != 404:
            raise
        time.sleep(0.2)
custom.patch_namespaced_custom_object("py.example.com", "v1", ns, "widgets", "w1", {"spec": {"size": 5}})
got = custom.get_namespaced_custom_object("py.example.com", "v1", ns, "widgets", "w1")
listed = custom.list_namespaced_custom_object("py.example.com", "v1", ns, "widgets")
invalid = api_error(lambda: custom.create_namespaced_custom_object("py.example.com", "v1", ns, "widgets", {"apiVersion": "py.example.com/v1", "kind": "Widget", "metadata": {"name": "w2"}, "spec": {"size": 0}}))
custom.delete_namespaced_custom_object("py.example.com", "v1", ns, "widgets", "w1")
report["custom"] = {"established": established, "size": got["spec"]["size"], "listed": [i["metadata"]["name"] for i in listed["items"]], "invalid": invalid}

# An aggregated API: the wardle sample-apiserver's flunders
flunder = {"apiVersion": "wardle.example.com/v1alpha1", "kind": "Flunder", "metadata": {"name": "py-flunder"}, "spec": {}}
custom.create_namespaced_custom_object("wardle.example.com", "v1alpha1", ns, "flunders", flunder)
flunders = custom.list_namespaced_custom_object("wardle.example.com", "v1alpha1", ns, "flunders")
one = custom.get_namespaced_custom_object("wardle.example.com", "v1alpha1", ns, "flunders", "py-flunder")
custom.delete_namespaced_custom_object("wardle.example.com", "v1alpha1", ns, "flunders", "py-flunder")
report["aggregated"] = {"listed": [i["metadata"]["name"] for i in flunders["items"]], "kind": one["kind"], "gone": api_error(lambda: custom.get_namespaced_custom_object("wardle.example.com", "v1alpha1", ns, "flunders", "py-flunder"))}

print(json.dumps(report))
