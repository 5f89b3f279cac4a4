package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.apiserver.registry.ScaleAdmission;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.Scale;

/**
 * A resource's Scale as the server shows it, in any served version: the object is converted to the
 * class the resource's {@link ScaleAccessor} reads, and the Scale ({@code autoscaling/v1}) names
 * the object (name, namespace, uid, resourceVersion, creation time), as kube-apiserver's scale
 * subresources do. Immutable; thread-safe.
 */
public final class ScaleView implements ScaleAccessor<Object> {
  private final Scheme scheme;
  private final Class<?> type;
  private final ScaleAccessor<Object> accessor;

  /**
   * Creates the view.
   *
   * @param scheme converts objects to the accessor's class
   * @param type the accessor's class (the storage version's)
   * @param accessor reads and writes the replicas
   */
  public ScaleView(Scheme scheme, Class<?> type, ScaleAccessor<Object> accessor) {
    this.scheme = scheme;
    this.type = type;
    this.accessor = accessor;
  }

  @Override
  public Scale read(Object object) {
    Object typed = type.isInstance(object) ? object : scheme.convert(object, type);
    return ScaleAdmission.named(accessor.read(typed), object);
  }

  /**
   * Sets the desired replicas of an object of the accessor's class.
   *
   * @param object the object, in the storage version, changed in place
   * @param scale the Scale sent by the client
   */
  @Override
  public void write(Object object, Scale scale) {
    accessor.write(object, scale);
  }
}
