"""The official Kubernetes Python client against a server: built-in kinds created, read, listed,
patched, watched and deleted, each answer read into the client's generated models. Prints one line
per step; exits non-zero on the first failure."""
import sys
import threading

from kubernetes import client, watch

config = client.Configuration()
config.host = sys.argv[1]
api = client.ApiClient(config)
core = client.CoreV1Api(api)
apps = client.AppsV1Api(api)
coordination = client.CoordinationV1Api(api)
NS = "default"


def step(name, ok, detail=""):
    if not ok:
        print("FAILED " + name + ": " + str(detail))
        sys.exit(1)
    print("ok " + name)


cm = core.create_namespaced_config_map(
    NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py"), data={"a": "1"}))
step("create configmap", cm.data == {"a": "1"} and cm.metadata.uid, cm)
read = core.read_namespaced_config_map("py", NS)
step("read configmap", read.metadata.resource_version == cm.metadata.resource_version, read)
listed = core.list_namespaced_config_map(NS)
step("list configmaps", any(i.metadata.name == "py" for i in listed.items), listed)
patched = core.patch_namespaced_config_map("py", NS, {"data": {"b": "2"}})
step("patch configmap", patched.data == {"a": "1", "b": "2"}, patched)

events = []


def follow():
    stream = watch.Watch()
    for event in stream.stream(core.list_namespaced_config_map, NS,
                               resource_version=listed.metadata.resource_version,
                               timeout_seconds=10):
        events.append((event["type"], event["object"].metadata.name))
        if events[-1] == ("ADDED", "py2"):
            stream.stop()


follower = threading.Thread(target=follow)
follower.start()
core.create_namespaced_config_map(NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py2")))
follower.join(15)
step("watch configmaps",
     ("ADDED", "py") not in events and ("MODIFIED", "py") in events and ("ADDED", "py2") in events,
     events)

status = core.delete_namespaced_config_map("py", NS)
step("delete configmap answers a Status",
     isinstance(status, client.V1Status) and status.status == "Success"
     and status.details.name == "py" and status.details.kind == "configmaps", status)

labels = {"app": "py"}
deployment = apps.create_namespaced_deployment(NS, client.V1Deployment(
    metadata=client.V1ObjectMeta(name="py"),
    spec=client.V1DeploymentSpec(
        selector=client.V1LabelSelector(match_labels=labels),
        template=client.V1PodTemplateSpec(
            metadata=client.V1ObjectMeta(labels=labels),
            spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.27")])))))
step("create deployment with defaults",
     deployment.spec.replicas == 1 and deployment.spec.strategy.type == "RollingUpdate"
     and deployment.spec.template.spec.containers[0].image_pull_policy == "IfNotPresent",
     deployment)
scale = apps.patch_namespaced_deployment_scale("py", NS, {"spec": {"replicas": 3}})
step("scale deployment", scale.spec.replicas == 3, scale)
step("deployment scaled", apps.read_namespaced_deployment("py", NS).spec.replicas == 3)
status = apps.delete_namespaced_deployment("py", NS)
step("delete deployment answers a Status", isinstance(status, client.V1Status)
     and status.status == "Success", status)

pod = core.create_namespaced_pod(NS, client.V1Pod(
    metadata=client.V1ObjectMeta(name="py"),
    spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="busybox")])))
step("create pod", pod.status.phase == "Pending" and pod.spec.restart_policy == "Always", pod)
deleted = core.delete_namespaced_pod("py", NS)
step("delete pod answers the pod", isinstance(deleted, client.V1Pod)
     and deleted.metadata.name == "py", deleted)

lease = coordination.create_namespaced_lease(NS, client.V1Lease(
    metadata=client.V1ObjectMeta(name="py"),
    spec=client.V1LeaseSpec(holder_identity="me", lease_duration_seconds=10)))
step("create lease", lease.spec.holder_identity == "me", lease)

try:
    core.create_namespaced_service(NS, client.V1Service(
        metadata=client.V1ObjectMeta(name="bad"),
        spec=client.V1ServiceSpec(type="Sideways", ports=[client.V1ServicePort(port=80)])))
    step("invalid service refused", False, "created")
except client.exceptions.ApiException as e:
    step("invalid service refused", e.status == 422 and "spec.type: Unsupported value" in e.body,
         e.body)
print("done")
