package dev.machinery.apiserver.negotiation;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.MalformedIdentifierException;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decodes options sent as query parameters ({@code ListOptions} on GET, {@code DeleteOptions} on
 * DELETE) into the version the client names with {@code kind} and {@code apiVersion} (or {@code
 * queryVersion}), {@code meta.k8s.io/v1} by default, as the alternate-representations proposal
 * asks. Values are converted to each field's type; an unknown {@code apiVersion}, an unknown
 * parameter, a repeated single-valued parameter or an unreadable value is a {@link
 * QueryParameterException} naming it.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class QueryOptions {
  private static final String DEFAULT_VERSION = "meta.k8s.io/v1";

  private final Scheme scheme;
  private final Codec json;
  private final Set<String> ignored;

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
        scheme
            .typeFor(gvk)
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
    Unstructured fields = new Unstructured();
    fields.setApiVersion(gvk.apiVersion());
    fields.setKind(gvk.kind());
    for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
      String name = parameter.getKey();
      if (Set.of("kind", "apiVersion", "queryVersion").contains(name) || ignored.contains(name)) {
        continue;
      }
      fields.setField(name, value(type, name, parameter.getValue()));
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

  private static Object value(Class<?> type, String name, List<String> values) {
    Method setter = setter(type, name);
    if (setter == null) {
      throw new QueryParameterException(
          name, "parameter \"" + name + "\" is not a field of " + type.getSimpleName());
    }
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
      if (text.equals("true") || text.equals("false")) {
        return Boolean.parseBoolean(text);
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
