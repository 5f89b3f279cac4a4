package dev.machinery.apiserver.admission;

import dev.machinery.unversioned.errors.ApiErrors;
import java.util.ArrayList;
import java.util.List;

/**
 * The ordered chain of admission plugins, as kube-apiserver's {@code
 * admission.chainAdmissionHandler}: {@link #mutate} runs the mutating plugins in order, each seeing
 * the object the one before returned; {@link #validate} runs the validating plugins in order. The
 * first refusal ends the write: an {@link AdmissionException} becomes {@code 403 Forbidden}, a
 * {@link dev.machinery.unversioned.errors.StatusException} is answered as it is.
 *
 * <p>Immutable; thread-safe when its plugins are.
 */
public final class AdmissionChain {
  private static final AdmissionChain EMPTY = new AdmissionChain(List.of());

  private final List<MutatingAdmissionPlugin> mutating;
  private final List<ValidatingAdmissionPlugin> validating;

  private AdmissionChain(List<AdmissionPlugin> plugins) {
    List<MutatingAdmissionPlugin> m = new ArrayList<>();
    List<ValidatingAdmissionPlugin> v = new ArrayList<>();
    for (AdmissionPlugin plugin : plugins) {
      boolean any = false;
      if (plugin instanceof MutatingAdmissionPlugin mutate) {
        m.add(mutate);
        any = true;
      }
      if (plugin instanceof ValidatingAdmissionPlugin validate) {
        v.add(validate);
        any = true;
      }
      if (!any) {
        throw new IllegalArgumentException(
            "admission plugin \""
                + plugin.name()
                + "\" ("
                + plugin.getClass().getName()
                + ") is neither a MutatingAdmissionPlugin nor a ValidatingAdmissionPlugin");
      }
    }
    this.mutating = List.copyOf(m);
    this.validating = List.copyOf(v);
  }

  /**
   * A chain of plugins, in order.
   *
   * @param plugins the plugins
   * @return the chain
   * @throws IllegalArgumentException for a plugin of neither kind, or two of one name
   */
  public static AdmissionChain of(List<? extends AdmissionPlugin> plugins) {
    List<String> names = new ArrayList<>();
    for (AdmissionPlugin plugin : plugins) {
      if (names.contains(plugin.name())) {
        throw new IllegalArgumentException(
            "two admission plugins are named \"" + plugin.name() + "\"");
      }
      names.add(plugin.name());
    }
    return plugins.isEmpty() ? EMPTY : new AdmissionChain(List.copyOf(plugins));
  }

  /**
   * Returns whether the chain has no plugin.
   *
   * @return whether it is empty
   */
  public boolean isEmpty() {
    return mutating.isEmpty() && validating.isEmpty();
  }

  /**
   * Runs the mutating plugins that handle the operation.
   *
   * @param attributes the write
   * @return the object to store (on delete, {@code attributes.object()})
   * @throws dev.machinery.unversioned.errors.StatusException when a plugin refuses
   */
  public Object mutate(AdmissionAttributes attributes) {
    AdmissionAttributes current = attributes;
    for (MutatingAdmissionPlugin plugin : mutating) {
      if (!plugin.handles(current.operation())) {
        continue;
      }
      Object result;
      try {
        result = plugin.admit(current);
      } catch (AdmissionException e) {
        throw forbidden(current, e);
      }
      if (current.operation() != Operation.DELETE) {
        if (result == null
            || current.object() != null && result.getClass() != current.object().getClass()) {
          throw new IllegalStateException(
              "admission plugin \""
                  + plugin.name()
                  + "\" returned "
                  + (result == null ? "null" : "a " + result.getClass().getName())
                  + " for a "
                  + current.object().getClass().getName());
        }
        current = current.withObject(result);
      }
    }
    return current.object();
  }

  /**
   * Runs the validating plugins that handle the operation.
   *
   * @param attributes the write
   * @throws dev.machinery.unversioned.errors.StatusException when a plugin refuses
   */
  public void validate(AdmissionAttributes attributes) {
    for (ValidatingAdmissionPlugin plugin : validating) {
      if (!plugin.handles(attributes.operation())) {
        continue;
      }
      try {
        plugin.validate(attributes);
      } catch (AdmissionException e) {
        throw forbidden(attributes, e);
      }
    }
  }

  private static RuntimeException forbidden(AdmissionAttributes attributes, AdmissionException e) {
    return (RuntimeException)
        ApiErrors.newForbidden(attributes.resource(), attributes.name(), e.getMessage())
            .initCause(e);
  }
}
