package dev.machinery.apiserver.admission;

import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * kube-apiserver's {@code NamespaceLifecycle} plugin: nothing is created in a namespace that does
 * not exist ({@code 404}) or is being terminated ({@code 403}: {@code unable to create new content
 * in namespace NS because it is being terminated}, with a {@code NamespaceTerminating} cause), and
 * the namespaces {@code default}, {@code kube-system} and {@code kube-public} cannot be deleted
 * ({@code 403}: {@code this namespace may not be deleted}). It runs first among the mutating
 * plugins, so no plugin works on a write that is refused anyway.
 *
 * <p>Immutable; thread-safe when its lookup is.
 */
public final class NamespaceLifecycle implements MutatingAdmissionPlugin {
  /** The plugin's name. */
  public static final String NAME = "NamespaceLifecycle";

  /** The namespaces that cannot be deleted. */
  public static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");

  /** What the plugin needs to know of a namespace. */
  public enum State {
    /** No namespace of that name exists. */
    ABSENT,
    /** It exists and is not being deleted. */
    ACTIVE,
    /** It is being deleted (a deletion timestamp, or the phase {@code Terminating}). */
    TERMINATING
  }

  private final Function<String, State> lookup;

  /**
   * Creates the plugin.
   *
   * @param lookup tells the state of a namespace by name
   */
  public NamespaceLifecycle(Function<String, State> lookup) {
    this.lookup = Objects.requireNonNull(lookup, "lookup");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE || operation == Operation.DELETE;
  }

  @Override
  public Object admit(AdmissionAttributes attributes) {
    boolean namespaceItself =
        attributes.kind().group().isEmpty() && attributes.kind().kind().equals("Namespace");
    if (attributes.operation() == Operation.DELETE) {
      if (namespaceItself && IMMORTAL.contains(attributes.name())) {
        throw new AdmissionException("this namespace may not be deleted");
      }
      return attributes.object();
    }
    if (namespaceItself || attributes.namespace().isEmpty()) {
      return attributes.object();
    }
    State state = lookup.apply(attributes.namespace());
    if (state == State.ABSENT) {
      throw ApiErrors.newNotFound(GroupResource.of("", "namespaces"), attributes.namespace());
    }
    if (state == State.TERMINATING) {
      Status refusal =
          ApiErrors.newForbidden(
                  attributes.resource(),
                  attributes.name(),
                  "unable to create new content in namespace "
                      + attributes.namespace()
                      + " because it is being terminated")
              .status();
      StatusDetails details = refusal.getDetails();
      if (details == null) {
        details = new StatusDetails();
        refusal.setDetails(details);
      }
      StatusCause cause = new StatusCause();
      cause.setReason("NamespaceTerminating");
      cause.setMessage("namespace " + attributes.namespace() + " is being terminated");
      cause.setField("metadata.namespace");
      List<StatusCause> causes =
          new ArrayList<>(details.getCauses() == null ? List.of() : details.getCauses());
      causes.add(cause);
      details.setCauses(causes);
      throw new StatusException(refusal);
    }
    return attributes.object();
  }
}
