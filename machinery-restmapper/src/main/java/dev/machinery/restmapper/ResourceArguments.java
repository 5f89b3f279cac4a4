package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.core.schema.KindArg;
import dev.machinery.core.schema.ResourceArg;
import java.util.Locale;
import java.util.Optional;

/**
 * Resolves resource arguments against a mapper: the forms kubectl accepts, {@code deploy}, {@code
 * deployments}, {@code deployment}, {@code deployments.apps}, {@code deployments.v1.apps}, and
 * {@code deploy/web} or {@code deployments.apps/web} (type and name); kinds such as {@code
 * Deployment.v1.apps}; and two forms kubectl does not accept, which this library adds: {@code
 * apps/deployments} (group and resource, when {@code apps} names no resource) and {@code
 * apps/deployments/web} (group, resource and name). kubectl reads {@code a/b} as type and name only
 * and refuses a second slash.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class ResourceArguments {
  private static final String FORMS =
      "expected TYPE, TYPE/NAME, GROUP/TYPE or GROUP/TYPE/NAME, where TYPE is resource,"
          + " resource.group or resource.version.group";

  private ResourceArguments() {}

  /**
   * Resolves a resource argument.
   *
   * @param mapper the mapper (a {@link DiscoveryRESTMapper} also expands short names)
   * @param argument the argument, such as {@code deployments.v1.apps/web}
   * @return the mapping and the name, if any
   * @throws ResourceArgumentException if the argument is not well formed
   * @throws NoResourceMatchException if it names no resource
   * @throws AmbiguousResourceException if it names several
   */
  public static ResolvedResource resolve(RESTMapper mapper, String argument) {
    String[] parts = argument.split("/", -1);
    for (String part : parts) {
      if (part.isEmpty()) {
        throw new ResourceArgumentException(
            argument, "resource argument \"" + argument + "\" has an empty part; " + FORMS);
      }
    }
    switch (parts.length) {
      case 1:
        return new ResolvedResource(mappingFor(mapper, parts[0]), Optional.empty());
      case 2:
        try {
          return new ResolvedResource(mappingFor(mapper, parts[0]), Optional.of(parts[1]));
        } catch (NoResourceMatchException notAType) {
          GroupVersionKind kind;
          try {
            kind =
                mapper.kindFor(
                    GroupVersionResource.of(parts[0], "", parts[1].toLowerCase(Locale.ROOT)));
          } catch (NoResourceMatchException notAGroup) {
            throw notAType;
          }
          return new ResolvedResource(
              mapper.restMapping(kind.groupKind(), kind.version()), Optional.empty());
        }
      case 3:
        GroupVersionKind kind =
            mapper.kindFor(
                GroupVersionResource.of(parts[0], "", parts[1].toLowerCase(Locale.ROOT)));
        return new ResolvedResource(
            mapper.restMapping(kind.groupKind(), kind.version()), Optional.of(parts[2]));
      default:
        throw new ResourceArgumentException(
            argument, "resource argument \"" + argument + "\" has too many parts; " + FORMS);
    }
  }

  /**
   * Resolves a type: {@code resource}, {@code resource.group} or {@code resource.version.group}.
   * The fully specified reading is tried first, then the {@code resource.group} one, as kubectl
   * does.
   *
   * @param mapper the mapper
   * @param type the type
   * @return the mapping
   */
  public static RESTMapping mappingFor(RESTMapper mapper, String type) {
    ResourceArg parsed = ResourceArg.parse(type.toLowerCase(Locale.ROOT));
    GroupVersionKind kind = null;
    if (parsed.fullySpecified().isPresent()) {
      try {
        kind = mapper.kindFor(parsed.fullySpecified().get());
      } catch (NoResourceMatchException notFullySpecified) {
        kind = null;
      }
    }
    if (kind == null) {
      kind = mapper.kindFor(parsed.groupResource().withVersion(""));
    }
    return mapper.restMapping(kind.groupKind(), kind.version());
  }

  /**
   * Resolves a kind argument: {@code Deployment}, {@code Deployment.apps} or {@code
   * Deployment.v1.apps}.
   *
   * @param mapper the mapper
   * @param kind the kind argument
   * @return the mapping
   * @throws NoKindMatchException if no version serves the kind
   */
  public static RESTMapping mappingForKind(RESTMapper mapper, String kind) {
    KindArg parsed = KindArg.parse(kind);
    if (parsed.fullySpecified().isPresent()) {
      GroupVersionKind full = parsed.fullySpecified().get();
      try {
        return mapper.restMapping(full.groupKind(), full.version());
      } catch (NoKindMatchException notFullySpecified) {
        // fall back to the group.kind reading
      }
    }
    GroupKind groupKind = parsed.groupKind();
    return mapper.restMapping(groupKind);
  }
}
