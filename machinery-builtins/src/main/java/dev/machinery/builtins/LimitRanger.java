package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube-apiserver's {@code LimitRanger} plugin, by the LimitRanges of the write's namespace: a
 * created Pod's containers and init containers get the {@code Container} limits' {@code default}
 * limits and {@code defaultRequest} requests they lack (written down in the annotation {@code
 * kubernetes.io/limit-ranger}); then each container is held to the {@code min}, {@code max} and
 * {@code maxLimitRequestRatio} of {@code Container} limits, the Pod's total to those of {@code Pod}
 * limits, and a PersistentVolumeClaim's storage request to those of {@code PersistentVolumeClaim}
 * limits, refused in kube-apiserver's words ({@code maximum cpu usage per Container is 1, but limit
 * is 2}). Pod updates are not checked. Thread-safe once initialized.
 */
final class LimitRanger implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  static final String NAME = "LimitRanger";
  static final String ANNOTATION = "kubernetes.io/limit-ranger";
  private static final GroupResource PODS = GroupResource.of("", "pods");
  private static final GroupResource CLAIMS = GroupResource.of("", "persistentvolumeclaims");
  private static final long MAX_MILLI_VALUE = Long.MAX_VALUE / 1000;

  private final Loopback loopback = new Loopback();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE || operation == Operation.UPDATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  private static boolean supports(AdmissionAttributes a) {
    if (!a.subresource().isEmpty()) {
      return false;
    }
    if (a.resource().equals(PODS)) {
      return a.operation() == Operation.CREATE;
    }
    return a.resource().equals(CLAIMS);
  }

  /** The namespace's limit items, each with LimitRange's defaults of a {@code Container} item. */
  private List<Map<String, Object>> limits(AdmissionAttributes a) {
    List<Map<String, Object>> out = new ArrayList<>();
    ranges(a).forEach(out::addAll);
    return out;
  }

  /** The items of each LimitRange of the namespace. */
  private List<List<Map<String, Object>>> ranges(AdmissionAttributes a) {
    if (a.oldObject() != null
        && JsonTrees.get(((Unstructured) a.oldObject()).content(), "metadata", "deletionTimestamp")
            != null) {
      return List.of();
    }
    List<List<Map<String, Object>>> ranges = new ArrayList<>();
    for (Map<String, Object> range :
        loopback.listCached("/api/v1/namespaces/" + a.namespace() + "/limitranges")) {
      List<Map<String, Object>> items = new ArrayList<>();
      for (Map<String, Object> item : JsonTrees.maps(range, "spec", "limits")) {
        items.add(withDefaults(item));
      }
      ranges.add(items);
    }
    return ranges;
  }

  /** Go's {@code SetDefaults_LimitRangeItem}, on a copy. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> withDefaults(Map<String, Object> item) {
    Map<String, Object> copy = (Map<String, Object>) JsonTrees.deepCopy(item);
    if (!"Container".equals(copy.get("type"))) {
      return copy;
    }
    Map<String, Object> def = JsonTrees.child(copy, "default");
    Map<String, Object> defRequest = JsonTrees.child(copy, "defaultRequest");
    Map<String, Object> max = JsonTrees.map(copy, "max");
    if (max != null) {
      max.forEach(def::putIfAbsent);
    }
    def.forEach(defRequest::putIfAbsent);
    Map<String, Object> min = JsonTrees.map(copy, "min");
    if (min != null) {
      min.forEach(defRequest::putIfAbsent);
    }
    return copy;
  }

  @Override
  public Object admit(AdmissionAttributes a) {
    if (!supports(a) || !a.resource().equals(PODS)) {
      return a.object();
    }
    Map<String, Object> pod = ((Unstructured) a.object()).content();
    // Each LimitRange in turn, as Go calls its mutation once per LimitRange: what a first range
    // sets, a later one finds set.
    for (List<Map<String, Object>> items : ranges(a)) {
      Map<String, Object> limits = new LinkedHashMap<>();
      Map<String, Object> requests = new LinkedHashMap<>();
      for (Map<String, Object> item : items) {
        if ("Container".equals(item.get("type"))) {
          Map<String, Object> d = JsonTrees.map(item, "default");
          Map<String, Object> r = JsonTrees.map(item, "defaultRequest");
          if (d != null) {
            limits.putAll(d);
          }
          if (r != null) {
            requests.putAll(r);
          }
        }
      }
      List<String> annotations = new ArrayList<>();
      for (Map<String, Object> c : JsonTrees.maps(pod, "spec", "containers")) {
        merge(c, limits, requests, "container", annotations);
      }
      for (Map<String, Object> c : JsonTrees.maps(pod, "spec", "initContainers")) {
        merge(c, limits, requests, "init container", annotations);
      }
      if (!annotations.isEmpty()) {
        JsonTrees.child(pod, "metadata", "annotations")
            .put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", annotations));
      }
    }
    return a.object();
  }

  private static void merge(
      Map<String, Object> container,
      Map<String, Object> limits,
      Map<String, Object> requests,
      String prefix,
      List<String> annotations) {
    Map<String, Object> resources = JsonTrees.child(container, "resources");
    TreeSet<String> setLimits = new TreeSet<>();
    TreeSet<String> setRequests = new TreeSet<>();
    if (!limits.isEmpty()) {
      Map<String, Object> own = JsonTrees.child(resources, "limits");
      limits.forEach(
          (k, v) -> {
            if (!own.containsKey(k)) {
              own.put(k, v);
              setLimits.add(k);
            }
          });
    }
    if (!requests.isEmpty()) {
      Map<String, Object> own = JsonTrees.child(resources, "requests");
      requests.forEach(
          (k, v) -> {
            if (!own.containsKey(k)) {
              own.put(k, v);
              setRequests.add(k);
            }
          });
    }
    String name = JsonTrees.string(container, "", "name");
    if (!setRequests.isEmpty()) {
      annotations.add(String.join(", ", setRequests) + " request for " + prefix + " " + name);
    }
    if (!setLimits.isEmpty()) {
      annotations.add(String.join(", ", setLimits) + " limit for " + prefix + " " + name);
    }
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (!supports(a)) {
      return;
    }
    List<Map<String, Object>> items = limits(a);
    if (items.isEmpty()) {
      return;
    }
    Map<String, Object> object = ((Unstructured) a.object()).content();
    Set<String> errors = new LinkedHashSet<>();
    if (a.resource().equals(PODS)) {
      validatePod(items, object, errors);
    } else {
      validateClaim(items, object, errors);
    }
    if (!errors.isEmpty()) {
      // Go's aggregate of errors: one is itself, several are bracketed.
      throw new AdmissionException(
          errors.size() == 1 ? errors.iterator().next() : "[" + String.join(", ", errors) + "]");
    }
  }

  private static void validatePod(
      List<Map<String, Object>> items, Map<String, Object> pod, Set<String> errors) {
    for (Map<String, Object> item : items) {
      String type = JsonTrees.string(item, "", "type");
      if (type.equals("Container")) {
        List<Map<String, Object>> containers =
            new ArrayList<>(JsonTrees.maps(pod, "spec", "containers"));
        containers.addAll(JsonTrees.maps(pod, "spec", "initContainers"));
        for (Map<String, Object> c : containers) {
          Map<String, Quantity> req = quantities(JsonTrees.map(c, "resources", "requests"));
          Map<String, Quantity> lim = quantities(JsonTrees.map(c, "resources", "limits"));
          constraints(item, type, req, lim, errors);
        }
      } else if (type.equals("Pod")) {
        constraints(item, type, podTotal(pod, "requests"), podTotal(pod, "limits"), errors);
      }
    }
  }

  private static void validateClaim(
      List<Map<String, Object>> items, Map<String, Object> claim, Set<String> errors) {
    Map<String, Quantity> req = quantities(JsonTrees.map(claim, "spec", "resources", "requests"));
    for (Map<String, Object> item : items) {
      String type = JsonTrees.string(item, "", "type");
      if (!type.equals("PersistentVolumeClaim")) {
        continue;
      }
      quantities(JsonTrees.map(item, "min"))
          .forEach((k, v) -> add(errors, min(type, k, v, req, Map.of())));
      quantities(JsonTrees.map(item, "max"))
          .forEach((k, v) -> add(errors, maxRequest(type, k, v, req)));
    }
  }

  private static void add(Set<String> errors, String error) {
    if (error != null) {
      errors.add(error);
    }
  }

  private static void constraints(
      Map<String, Object> item,
      String type,
      Map<String, Quantity> req,
      Map<String, Quantity> lim,
      Set<String> errors) {
    quantities(JsonTrees.map(item, "min"))
        .forEach((k, v) -> add(errors, min(type, k, v, req, lim)));
    quantities(JsonTrees.map(item, "max"))
        .forEach((k, v) -> add(errors, max(type, k, v, req, lim)));
    quantities(JsonTrees.map(item, "maxLimitRequestRatio"))
        .forEach((k, v) -> add(errors, ratio(type, k, v, req, lim)));
  }

  private static Map<String, Quantity> quantities(Map<String, Object> list) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    if (list != null) {
      list.forEach((k, v) -> out.put(k, Quantity.parse(String.valueOf(v))));
    }
    return out;
  }

  /** The values at a common precision, as Go's {@code requestLimitEnforcedValues}. */
  private static long[] common(Quantity request, Quantity limit, Quantity enforced) {
    long r = request.value();
    long l = limit.value();
    long e = enforced.value();
    if (r <= MAX_MILLI_VALUE && l <= MAX_MILLI_VALUE && e <= MAX_MILLI_VALUE) {
      return new long[] {request.milliValue(), limit.milliValue(), enforced.milliValue()};
    }
    return new long[] {r, l, e};
  }

  static String min(
      String type,
      String resource,
      Quantity enforced,
      Map<String, Quantity> req,
      Map<String, Quantity> lim) {
    Quantity r = req.getOrDefault(resource, Quantity.ZERO);
    Quantity l = lim.getOrDefault(resource, Quantity.ZERO);
    long[] v = common(r, l, enforced);
    String prefix = "minimum " + resource + " usage per " + type + " is " + enforced;
    if (!req.containsKey(resource)) {
      return prefix + ".  No request is specified";
    }
    if (v[0] < v[2]) {
      return prefix + ", but request is " + r;
    }
    if (lim.containsKey(resource) && v[1] < v[2]) {
      return prefix + ", but limit is " + l;
    }
    return null;
  }

  static String max(
      String type,
      String resource,
      Quantity enforced,
      Map<String, Quantity> req,
      Map<String, Quantity> lim) {
    Quantity r = req.getOrDefault(resource, Quantity.ZERO);
    Quantity l = lim.getOrDefault(resource, Quantity.ZERO);
    long[] v = common(r, l, enforced);
    String prefix = "maximum " + resource + " usage per " + type + " is " + enforced;
    if (!lim.containsKey(resource)) {
      return prefix + ".  No limit is specified";
    }
    if (v[1] > v[2]) {
      return prefix + ", but limit is " + l;
    }
    if (req.containsKey(resource) && v[0] > v[2]) {
      return prefix + ", but request is " + r;
    }
    return null;
  }

  static String maxRequest(
      String type, String resource, Quantity enforced, Map<String, Quantity> req) {
    Quantity r = req.getOrDefault(resource, Quantity.ZERO);
    long[] v = common(r, Quantity.ZERO, enforced);
    String prefix = "maximum " + resource + " usage per " + type + " is " + enforced;
    if (!req.containsKey(resource)) {
      return prefix + ".  No request is specified";
    }
    if (v[0] > v[2]) {
      return prefix + ", but request is " + r;
    }
    return null;
  }

  static String ratio(
      String type,
      String resource,
      Quantity enforced,
      Map<String, Quantity> req,
      Map<String, Quantity> lim) {
    Quantity r = req.getOrDefault(resource, Quantity.ZERO);
    Quantity l = lim.getOrDefault(resource, Quantity.ZERO);
    long[] v = common(r, l, enforced);
    String prefix = resource + " max limit to request ratio per " + type + " is " + enforced;
    if (!req.containsKey(resource) || v[0] == 0) {
      return prefix + ", but no request is specified or request is 0";
    }
    if (!lim.containsKey(resource) || v[1] == 0) {
      return prefix + ", but no limit is specified or limit is 0";
    }
    double observed = (double) v[1] / (double) v[0];
    double display = observed;
    double maxRatio = enforced.value();
    if (enforced.value() <= MAX_MILLI_VALUE) {
      observed = observed * 1000;
      maxRatio = enforced.milliValue();
    }
    if (observed > maxRatio) {
      return prefix + ", but provided ratio is " + String.format(Locale.ROOT, "%f", display);
    }
    return null;
  }

  /**
   * A Pod's requests or limits as Go's {@code PodRequests} and {@code PodLimits} total them: its
   * containers and sidecars, or the largest init container (with the sidecars started before it),
   * whichever is more, plus its overhead.
   */
  static Map<String, Quantity> podTotal(Map<String, Object> pod, String which) {
    Map<String, Quantity> total = new LinkedHashMap<>();
    for (Map<String, Object> c : JsonTrees.maps(pod, "spec", "containers")) {
      addTo(total, quantities(JsonTrees.map(c, "resources", which)));
    }
    Map<String, Quantity> sidecars = new LinkedHashMap<>();
    Map<String, Quantity> init = new LinkedHashMap<>();
    for (Map<String, Object> c : JsonTrees.maps(pod, "spec", "initContainers")) {
      Map<String, Quantity> own = quantities(JsonTrees.map(c, "resources", which));
      Map<String, Quantity> during;
      if ("Always".equals(c.get("restartPolicy"))) {
        addTo(total, own);
        addTo(sidecars, own);
        during = new LinkedHashMap<>(sidecars);
      } else {
        during = new LinkedHashMap<>(own);
        addTo(during, sidecars);
      }
      during.forEach(
          (k, v) -> {
            Quantity was = init.get(k);
            if (was == null || v.compareTo(was) > 0) {
              init.put(k, v);
            }
          });
    }
    init.forEach(
        (k, v) -> {
          Quantity was = total.get(k);
          if (was == null || v.compareTo(was) > 0) {
            total.put(k, v);
          }
        });
    addTo(total, quantities(JsonTrees.map(pod, "spec", "overhead")));
    return total;
  }

  private static void addTo(Map<String, Quantity> into, Map<String, Quantity> more) {
    more.forEach((k, v) -> into.merge(k, v, Quantity::add));
  }
}
