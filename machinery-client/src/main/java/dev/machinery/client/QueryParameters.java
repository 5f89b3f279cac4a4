package dev.machinery.client;

import dev.machinery.unversioned.meta.v1.CreateOptions;
import dev.machinery.unversioned.meta.v1.GetOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options as query parameters, as Go's parameter codec writes them ({@code
 * runtime.NewParameterCodec} over {@code queryparams.Convert}): each field by its JSON name, empty
 * and zero values left out ({@code omitempty}), a set pointer written even when false or zero,
 * lists as repeated parameters, and the names sorted as {@code url.Values.Encode} sorts them.
 * Stateless.
 */
final class QueryParameters {
  private QueryParameters() {}

  static Map<String, List<String>> get(GetOptions options) {
    Map<String, List<String>> q = new TreeMap<>();
    put(q, "resourceVersion", options.getResourceVersion());
    return q;
  }

  static Map<String, List<String>> list(ListOptions options) {
    Map<String, List<String>> q = new TreeMap<>();
    put(q, "labelSelector", options.getLabelSelector());
    put(q, "fieldSelector", options.getFieldSelector());
    if (options.isWatch()) {
      q.put("watch", List.of("true"));
    }
    if (options.isAllowWatchBookmarks()) {
      q.put("allowWatchBookmarks", List.of("true"));
    }
    put(q, "resourceVersion", options.getResourceVersion());
    put(q, "resourceVersionMatch", options.getResourceVersionMatch());
    if (options.getTimeoutSeconds() != null) {
      q.put("timeoutSeconds", List.of(Long.toString(options.getTimeoutSeconds())));
    }
    if (options.getLimit() != 0) {
      q.put("limit", List.of(Long.toString(options.getLimit())));
    }
    put(q, "continue", options.getContinue());
    if (options.getSendInitialEvents() != null) {
      q.put("sendInitialEvents", List.of(options.getSendInitialEvents().toString()));
    }
    return q;
  }

  static Map<String, List<String>> create(CreateOptions options) {
    return write(options.getDryRun(), options.getFieldManager(), options.getFieldValidation());
  }

  static Map<String, List<String>> update(UpdateOptions options) {
    return write(options.getDryRun(), options.getFieldManager(), options.getFieldValidation());
  }

  static Map<String, List<String>> patch(PatchOptions options) {
    Map<String, List<String>> q =
        write(options.getDryRun(), options.getFieldManager(), options.getFieldValidation());
    if (options.getForce() != null) {
      q.put("force", List.of(options.getForce().toString()));
    }
    return q;
  }

  private static Map<String, List<String>> write(
      List<String> dryRun, String fieldManager, String fieldValidation) {
    Map<String, List<String>> q = new TreeMap<>();
    if (dryRun != null && !dryRun.isEmpty()) {
      q.put("dryRun", List.copyOf(dryRun));
    }
    put(q, "fieldManager", fieldManager);
    put(q, "fieldValidation", fieldValidation);
    return q;
  }

  private static void put(Map<String, List<String>> q, String name, String value) {
    if (value != null && !value.isEmpty()) {
      q.put(name, List.of(value));
    }
  }
}
