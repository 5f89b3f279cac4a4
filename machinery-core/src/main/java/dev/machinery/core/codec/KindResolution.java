package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.MalformedIdentifierException;
import java.util.List;

/**
 * Finds the kind and class a document decodes to from its {@code apiVersion} and {@code kind} and
 * the class the caller asked for: a missing or malformed type field, a kind the Scheme does not
 * know, and a kind that does not decode to the asked-for class are each reported with their own
 * exception. Stateless; lookups are cached by the {@link CodecFactory}.
 */
final class KindResolution {
  private static final String API_VERSION = MachineryModule.API_VERSION;
  private static final String KIND = MachineryModule.KIND;

  private KindResolution() {}

  private static GroupVersionKind identify(String apiVersion, String kind) {
    if (kind == null || kind.isEmpty()) {
      throw new MissingKindException(
          "the document has no kind"
              + (apiVersion == null || apiVersion.isEmpty()
                  ? " and no apiVersion"
                  : " (apiVersion " + quote(apiVersion) + ")")
              + "; every document names its type with apiVersion and kind");
    }
    if (apiVersion == null || apiVersion.isEmpty()) {
      throw new MissingVersionException(
          "the document of kind "
              + quote(kind)
              + " has no apiVersion; expected \"group/version\", or \"v1\" for the core group");
    }
    GroupVersionKind gvk;
    try {
      gvk = GroupVersionKind.fromApiVersionAndKind(apiVersion, kind);
    } catch (MalformedIdentifierException e) {
      String field = e.input().equals(kind) ? KIND : API_VERSION;
      throw new DecodeException("invalid " + field + ": " + e.getMessage(), field, 0, 0, e);
    }
    if (gvk.version().isEmpty()) {
      throw new MissingVersionException(
          "the apiVersion " + quote(apiVersion) + " names a group but no version");
    }
    return gvk;
  }

  /**
   * The kind and class of a document that names {@code apiVersion} and {@code kind} (either may be
   * null), decoded into {@code expected}.
   *
   * @param converting whether the codec converts what it decodes, so that the class it binds need
   *     not be {@code expected}
   */
  static CodecFactory.Resolved resolve(
      CodecFactory factory, String apiVersion, String kind, Class<?> expected, boolean converting) {
    if (expected != Object.class && !converting) {
      CodecFactory.Resolved byExpected =
          resolveByExpected(factory.scheme(), apiVersion, kind, expected);
      if (byExpected != null) {
        return byExpected;
      }
    }
    CodecFactory.Resolved resolved =
        apiVersion == null || kind == null ? null : factory.cached(apiVersion, kind);
    if (resolved == null) {
      GroupVersionKind gvk = identify(apiVersion, kind);
      Scheme scheme = factory.scheme();
      Class<?> type =
          scheme
              .typeFor(gvk)
              .orElseThrow(() -> new UnknownKindException(gvk, scheme.notRegistered(gvk)));
      resolved = factory.cache(apiVersion, kind, gvk, type);
    }
    if (!converting) {
      checkExpected(resolved.kind, resolved.type, expected);
    }
    return resolved;
  }

  /**
   * Decoding into a named class: a class the Scheme does not know (such as an unstructured object)
   * takes any kind the document names; a registered class fills in a missing apiVersion or kind
   * from its one matching registration, as Kubernetes' decoders default them from the target.
   */
  @SuppressWarnings("unchecked")
  private static CodecFactory.Resolved resolveByExpected(
      Scheme scheme, String apiVersion, String kind, Class<?> expected) {
    List<GroupVersionKind> kinds = scheme.kindsFor(expected);
    if (kinds.isEmpty()) {
      if (java.lang.reflect.Modifier.isAbstract(expected.getModifiers())
          || expected.isInterface()) {
        return null;
      }
      return new CodecFactory.Resolved(identify(apiVersion, kind), (Class<?>) expected);
    }
    boolean noVersion = apiVersion == null || apiVersion.isEmpty();
    boolean noKind = kind == null || kind.isEmpty();
    if (!noVersion && !noKind) {
      return null;
    }
    GroupVersionKind match = null;
    for (GroupVersionKind candidate : kinds) {
      if ((noVersion || candidate.apiVersion().equals(apiVersion))
          && (noKind || candidate.kind().equals(kind))) {
        if (match != null) {
          return null;
        }
        match = candidate;
      }
    }
    return match == null ? null : new CodecFactory.Resolved(match, (Class<?>) expected);
  }

  static void checkExpected(GroupVersionKind gvk, Class<?> type, Class<?> expected) {
    if (!expected.isAssignableFrom(type)) {
      throw new DecodeException(
          "the document is "
              + quote(gvk.toString())
              + ", which decodes to "
              + type.getName()
              + ", not the expected "
              + expected.getName(),
          KIND);
    }
  }
}
