package dev.machinery.controller.cache;

import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.util.Map;

/** Test objects: pods held as Unstructured. */
final class Objects2 {
  private Objects2() {}

  static Unstructured pod(String namespace, String name, String resourceVersion) {
    Unstructured pod = new Unstructured();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    pod.setNamespace(namespace);
    pod.setName(name);
    pod.setResourceVersion(resourceVersion);
    return pod;
  }

  static Unstructured labelled(Unstructured object, Map<String, String> labels) {
    object.setLabels(labels);
    return object;
  }

  static Event event(EventType type, Unstructured object) {
    return new Event(type, object);
  }

  static Event bookmark(String resourceVersion) {
    Unstructured marker = new Unstructured();
    marker.setApiVersion("v1");
    marker.setKind("Pod");
    marker.setResourceVersion(resourceVersion);
    return new Event(EventType.BOOKMARK, marker);
  }

  static Event expired() {
    Status status = ApiErrors.newResourceExpired("too old resource version: 1 (10)").status();
    return new Event(EventType.ERROR, status);
  }
}
