package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.MalformedIdentifierException;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.fields.FieldSelector;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.managedfields.FieldManagers;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The options of a request, read as kube-apiserver reads them: {@code ListOptions} and {@code
 * DeleteOptions} from query parameters through the library's {@code QueryOptions} (or, for delete,
 * from the body, in {@code meta.k8s.io/v1}, {@code v1} or any served group version), {@code dryRun}
 * and {@code fieldValidation} with kube-apiserver's messages, and the label and field selectors as
 * a filter over stored objects. Stateless.
 */
final class RequestOptions {
  private RequestOptions() {}

  /** The request's {@code ListOptions} (selectors, limit, continue, resourceVersion, ...). */
  static ListOptions list(RequestScope scope, ApiRequest request) {
    return (ListOptions) scope.queryOptions().decode(request.query(), "ListOptions");
  }

  /** The page size: 0 for all, negative sizes as 0, large ones capped. */
  static int limit(ListOptions options) {
    return (int) Math.min(Math.max(options.getLimit(), 0), Integer.MAX_VALUE);
  }

  /** Whether {@code dryRun=All} was asked for; any other value is a 400. */
  static boolean dryRun(ApiRequest request) {
    List<String> values = request.query().getOrDefault("dryRun", List.of());
    for (String value : values) {
      if (!value.equals("All")) {
        throw ApiErrors.newBadRequest(
            "dryRun: Unsupported value: \"" + value + "\": supported values: \"All\"");
      }
    }
    return !values.isEmpty();
  }

  /**
   * Checks the {@code fieldManager} parameter of a write (at most 128 bytes, printable), refusing
   * it as kube-apiserver does: {@code CreateOptions.meta.k8s.io "" is invalid: ...}.
   */
  static void checkFieldManager(ApiRequest request, String optionsKind) {
    List<FieldError> errors =
        FieldManagers.validate(request.parameter("fieldManager"), FieldPath.of("fieldManager"));
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(GroupKind.of("meta.k8s.io", optionsKind), "", errors);
    }
  }

  /**
   * Checks a patch's options as kube-apiserver's {@code ValidatePatchOptions}: an apply needs a
   * {@code fieldManager}; {@code force} is for applies only.
   *
   * @return whether {@code force=true} was asked for
   */
  static boolean checkPatchOptions(ApiRequest request, boolean apply) {
    List<FieldError> errors = new ArrayList<>();
    String force = request.parameter("force");
    boolean forced = false;
    if (force != null) {
      if (!apply) {
        errors.add(
            FieldError.forbidden(
                FieldPath.of("force"), "may not be specified for non-apply patch"));
      } else if (force.equals("true") || force.equals("1")) {
        forced = true;
      } else if (!force.equals("false") && !force.equals("0") && !force.isEmpty()) {
        throw ApiErrors.newBadRequest(
            "force: Invalid value: \"" + force + "\": expected true or false");
      }
    }
    String manager = request.parameter("fieldManager");
    if (apply && (manager == null || manager.isEmpty())) {
      errors.add(FieldError.required(FieldPath.of("fieldManager"), "is required for apply patch"));
    }
    errors.addAll(FieldManagers.validate(manager, FieldPath.of("fieldManager")));
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(GroupKind.of("meta.k8s.io", "PatchOptions"), "", errors);
    }
    return forced;
  }

  /** The {@code fieldValidation} directive, {@code Warn} by default as in kube-apiserver. */
  static FieldValidation fieldValidation(ApiRequest request) {
    String value = request.parameter("fieldValidation");
    if (value == null || value.isEmpty() || value.equals("Warn")) {
      return FieldValidation.WARN;
    }
    if (value.equals("Strict")) {
      return FieldValidation.STRICT;
    }
    if (value.equals("Ignore")) {
      return FieldValidation.IGNORE;
    }
    throw ApiErrors.newBadRequest(
        "fieldValidation: Unsupported value: \""
            + value
            + "\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
  }

  /**
   * The {@code DeleteOptions} of a delete: the body's when there is one (its {@code apiVersion} may
   * be {@code meta.k8s.io/v1}, {@code v1} or any group version of the Scheme, as clients such as
   * fabric8 send it), else the query's; a {@code propagationPolicy} parameter wins over the body's.
   */
  static DeleteOptions delete(RequestScope scope, ApiRequest request) {
    byte[] body = scope.body(request);
    DeleteOptions options;
    if (body.length == 0) {
      options = (DeleteOptions) scope.queryOptions().decode(request.query(), "DeleteOptions");
    } else {
      options = deleteBody(scope, body);
      String policy = request.parameter("propagationPolicy");
      if (policy != null) {
        options.setPropagationPolicy(policy);
      }
    }
    List<FieldError> errors = validateDelete(options);
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(GroupKind.of("meta.k8s.io", "DeleteOptions"), "", errors);
    }
    return options;
  }

  /**
   * kube's {@code ValidateDeleteOptions}: {@code orphanDependents} and {@code propagationPolicy}
   * not both, and a known policy ({@code dryRun} is checked by {@link #dryRun(ApiRequest)}).
   */
  static List<FieldError> validateDelete(DeleteOptions options) {
    List<FieldError> errors = new ArrayList<>();
    String policy = options.getPropagationPolicy();
    if (options.getOrphanDependents() != null && policy != null) {
      errors.add(
          FieldError.invalid(
              FieldPath.of("propagationPolicy"),
              policy,
              "orphanDependents and deletionPropagation cannot be both set"));
    }
    if (policy != null && !List.of("Foreground", "Background", "Orphan").contains(policy)) {
      errors.add(
          FieldError.notSupported(
              FieldPath.of("propagationPolicy"),
              policy,
              List.of("Foreground", "Background", "Orphan", "nil")));
    }
    return errors;
  }

  /** Whether a delete is a dry run, by its query or its options. */
  static boolean dryRun(ApiRequest request, DeleteOptions options) {
    return dryRun(request) || options.getDryRun() != null && options.getDryRun().contains("All");
  }

  private static DeleteOptions deleteBody(RequestScope scope, byte[] body) {
    JsonNode tree = Patches.readTree(body, "the DeleteOptions body");
    if (!tree.isObject()) {
      throw ApiErrors.newBadRequest("the DeleteOptions body must be a JSON object");
    }
    ObjectNode fields = (ObjectNode) tree;
    String apiVersion = fields.path("apiVersion").asText("");
    String kind = fields.path("kind").asText("");
    if (!apiVersion.isEmpty() || !kind.isEmpty()) {
      GroupVersionKind named;
      try {
        named =
            GroupVersionKind.fromApiVersionAndKind(
                apiVersion.isEmpty() ? "meta.k8s.io/v1" : apiVersion,
                kind.isEmpty() ? "DeleteOptions" : kind);
      } catch (MalformedIdentifierException e) {
        throw ApiErrors.newBadRequest(e.getMessage());
      }
      if (!named.kind().equals("DeleteOptions")
          || scope.queryOptions().optionsType(named).isEmpty()) {
        throw ApiErrors.newBadRequest(
            "no kind \""
                + named.kind()
                + "\" is registered for version \""
                + named.apiVersion()
                + "\"; a delete reads DeleteOptions in meta.k8s.io/v1 and in every group version"
                + " this server serves");
      }
      fields.remove("apiVersion");
      fields.remove("kind");
    }
    return scope
        .json()
        .decode(fields.toString().getBytes(StandardCharsets.UTF_8), DeleteOptions.class)
        .object();
  }

  /**
   * The value a list's field selector requires of a field the store's watch cache indexes, if it
   * requires one (such as {@code spec.nodeName=node-1} for Pods); {@code null} otherwise.
   */
  static ResourceStore.FieldValue indexed(ListOptions options, ResourceStore store) {
    String fieldText = options.getFieldSelector();
    if (fieldText == null || fieldText.isEmpty() || store.definition().indexedFields().isEmpty()) {
      return null;
    }
    FieldSelector fields = FieldSelector.parse(fieldText);
    for (String field : store.definition().indexedFields()) {
      Optional<String> value = fields.requiresExactMatch(field);
      if (value.isPresent()) {
        return new ResourceStore.FieldValue(field, value.get());
      }
    }
    return null;
  }

  /**
   * The label and field selectors of the options as a filter over stored objects; a field the
   * resource does not label is a 400, as in kube-apiserver.
   */
  static Predicate<Object> filter(ListOptions options, ResourceStore store) {
    String labelText = options.getLabelSelector();
    String fieldText = options.getFieldSelector();
    Selector labels =
        labelText == null || labelText.isEmpty()
            ? Selector.everything()
            : Selector.parse(labelText);
    FieldSelector fields =
        fieldText == null || fieldText.isEmpty()
            ? FieldSelector.everything()
            : FieldSelector.parse(fieldText);
    Map<String, Function<Object, String>> known = store.definition().fieldLabels();
    for (FieldSelector.Term term : fields.terms()) {
      if (!term.field().equals("metadata.name")
          && !term.field().equals("metadata.namespace")
          && !known.containsKey(term.field())) {
        throw ApiErrors.newBadRequest(
            "Unable to find \""
                + store.groupResource().resource()
                + "\" that match label selector \""
                + Objects.toString(labelText, "")
                + "\", field selector \""
                + fieldText
                + "\": field label not supported: "
                + term.field());
      }
    }
    if (labels.isEmpty() && fields.isEmpty()) {
      return ResourceStore.EVERYTHING;
    }
    return object -> {
      MetaObject meta = Accessor.of(object);
      if (!labels.matches(meta.getLabels() == null ? Map.of() : meta.getLabels())) {
        return false;
      }
      if (fields.isEmpty()) {
        return true;
      }
      Map<String, String> values = new HashMap<>();
      values.put("metadata.name", Objects.toString(meta.getName(), ""));
      values.put("metadata.namespace", Objects.toString(meta.getNamespace(), ""));
      known.forEach(
          (label, reader) -> values.put(label, Objects.toString(reader.apply(object), "")));
      return fields.matches(values);
    };
  }
}
