package dev.machinery.apiserver.negotiation;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.MalformedIdentifierException;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decodes options sent as query parameters ({@code ListOptions} on GET, {@code DeleteOptions} on
 * DELETE) into the version the client names with {@code kind} and {@code apiVersion} (or {@code
 * queryVersion}), {@code meta.k8s.io/v1} by default, as the alternate-representations proposal
 * asks. As in kube-apiserver's parameter scheme, the option kinds are read in {@code
 * meta.k8s.io/v1} and in every group version the Scheme registers ({@code v1}, {@code apps/v1},
 * ...), whether or not the Scheme binds them there ({@link #optionsType}). Values are converted to
 * each field's type; an unknown {@code apiVersion}, a repeated single-valued parameter or an
 * unreadable value is a {@link QueryParameterException} naming it. A parameter that is no field of
 * the options is ignored, as Go's parameter codec ignores it (a server reads {@code pretty}, say,
 * itself).
 *
 * <p>Immutable and safe to share between threads.
 */
public final class QueryOptions {
  private static final String DEFAULT_VERSION = "meta.k8s.io/v1";
  private static final Set<String> OPTION_KINDS =
      Set.of(
          "ListOptions",
          "GetOptions",
          "DeleteOptions",
          "CreateOptions",
          "UpdateOptions",
          "PatchOptions");

  private final Scheme scheme;
  private final Codec json;
  private final Set<String> ignored;
  private final Set<GroupVersion> groupVersions;

  /**
   * Creates the decoder.
   *
   * @param codecs the codec factory whose Scheme holds the option kinds
   * @param ignored parameters the endpoint reads itself (such as {@code pretty} or {@code
   *     includeObject}), skipped here
   */
  public QueryOptions(CodecFactory codecs, Set<String> ignored) {
    this.scheme = codecs.scheme();
    this.json = codecs.json();
    this.ignored = Set.copyOf(ignored);
    this.groupVersions = Set.copyOf(scheme.prioritizedVersionsAllGroups());
  }

  /**
   * Returns the class of an option kind in a version, as kube-apiserver's parameter scheme reads
   * it: the class the Scheme registers for it, else, for {@code ListOptions}, {@code GetOptions},
   * {@code DeleteOptions}, {@code CreateOptions}, {@code UpdateOptions} and {@code PatchOptions} in
   * any group version the Scheme registers, their {@code meta.k8s.io/v1} class (Kubernetes binds
   * them into every group version).
   *
   * @param kind the options kind and the version the client names
   * @return the class, or empty when the server does not read that kind in that version
   */
  public Optional<Class<?>> optionsType(GroupVersionKind kind) {
    Optional<Class<?>> registered = scheme.typeFor(kind);
    if (registered.isPresent() || !OPTION_KINDS.contains(kind.kind())) {
      return registered;
    }
    if (!groupVersions.contains(kind.groupVersion())) {
      return Optional.empty();
    }
    return scheme.typeFor(GroupVersionKind.fromApiVersionAndKind(DEFAULT_VERSION, kind.kind()));
  }

  /**
   * Decodes the options of one request.
   *
   * @param query the query parameters, each with its values in order
   * @param defaultKind {@code ListOptions} for GET, {@code DeleteOptions} for DELETE
   * @return the options object, of the class registered for the kind and version
   * @throws QueryParameterException naming the parameter at fault
   */
  public Object decode(Map<String, List<String>> query, String defaultKind) {
    Objects.requireNonNull(query, "query");
    String kind = single(query, "kind", defaultKind);
    String apiVersion = single(query, "apiVersion", null);
    String queryVersion = single(query, "queryVersion", null);
    if (apiVersion != null && queryVersion != null && !apiVersion.equals(queryVersion)) {
      throw new QueryParameterException(
          "queryVersion",
          "apiVersion=" + apiVersion + " and queryVersion=" + queryVersion + " disagree");
    }
    String version =
        apiVersion != null ? apiVersion : queryVersion != null ? queryVersion : DEFAULT_VERSION;
    GroupVersionKind gvk;
    try {
      gvk = GroupVersionKind.fromApiVersionAndKind(version, kind);
    } catch (MalformedIdentifierException e) {
      throw new QueryParameterException(
          "apiVersion", "apiVersion=" + version + ": " + e.getMessage());
    }
    Class<?> type =
        optionsType(gvk)
            .orElseThrow(
                () ->
                    new QueryParameterException(
                        apiVersion != null
                            ? "apiVersion"
                            : queryVersion != null ? "queryVersion" : "kind",
                        "options of kind \""
                            + kind
                            + "\" in apiVersion \""
                            + version
                            + "\" are not understood by this server; it reads "
                            + DEFAULT_VERSION));
    GroupVersionKind bound =
        scheme.typeFor(gvk).isPresent()
            ? gvk
            : GroupVersionKind.fromApiVersionAndKind(DEFAULT_VERSION, gvk.kind());
    Unstructured fields = new Unstructured();
    fields.setApiVersion(bound.apiVersion());
    fields.setKind(bound.kind());
    for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
      String name = parameter.getKey();
      if (Set.of("kind", "apiVersion", "queryVersion").contains(name) || ignored.contains(name)) {
        continue;
      }
      Method setter = setter(type, name);
      if (setter != null) {
        fields.setField(name, value(setter, name, parameter.getValue()));
      }
    }
    try {
      return json.decode(json.encode(fields), type).object();
    } catch (DecodeException e) {
      throw new QueryParameterException(
          e.fieldPath().isEmpty() ? "(query)" : e.fieldPath(),
          "query parameters for " + gvk + ": " + e.getMessage());
    }
  }

  private static String single(Map<String, List<String>> query, String name, String otherwise) {
    List<String> values = query.get(name);
    if (values == null || values.isEmpty()) {
      return otherwise;
    }
    if (values.size() > 1) {
      throw new QueryParameterException(
          name, "parameter \"" + name + "\" is given " + values.size() + " times");
    }
    return values.get(0);
  }

  private static Object value(Method setter, String name, List<String> values) {
    Class<?> target = setter.getParameterTypes()[0];
    if (List.class.isAssignableFrom(target)) {
      Object element =
          setter.getGenericParameterTypes()[0] instanceof ParameterizedType
              ? ((ParameterizedType) setter.getGenericParameterTypes()[0])
                  .getActualTypeArguments()[0]
              : String.class;
      if (element != String.class) {
        throw new QueryParameterException(
            name, "parameter \"" + name + "\" cannot be sent in a query");
      }
      return List.copyOf(values);
    }
    if (values.size() != 1) {
      throw new QueryParameterException(
          name, "parameter \"" + name + "\" takes one value, got " + values.size());
    }
    String text = values.get(0);
    if (target == String.class) {
      return text;
    }
    if (target == boolean.class || target == Boolean.class) {
      // Go's strconv.ParseBool, which kube-apiserver's parameter codec uses.
      if (List.of("1", "t", "T", "true", "TRUE", "True").contains(text)) {
        return true;
      }
      if (List.of("0", "f", "F", "false", "FALSE", "False").contains(text)) {
        return false;
      }
      throw new QueryParameterException(
          name, "parameter \"" + name + "\" is \"" + text + "\"; expected true or false");
    }
    if (target == long.class
        || target == Long.class
        || target == int.class
        || target == Integer.class) {
      try {
        long number = Long.parseLong(text);
        if ((target == int.class || target == Integer.class)
            && (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE)) {
          throw new NumberFormatException();
        }
        return number;
      } catch (NumberFormatException e) {
        throw new QueryParameterException(
            name, "parameter \"" + name + "\" is \"" + text + "\"; expected a whole number");
      }
    }
    throw new QueryParameterException(name, "parameter \"" + name + "\" cannot be sent in a query");
  }

  private static Method setter(Class<?> type, String name) {
    String setter = "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    for (Method method : type.getMethods()) {
      if (method.getName().equals(setter) && method.getParameterCount() == 1) {
        return method;
      }
    }
    return null;
  }
}
