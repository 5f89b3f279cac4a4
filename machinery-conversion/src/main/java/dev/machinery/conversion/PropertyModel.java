package dev.machinery.conversion;

import java.util.List;

/**
 * Which properties a class has: the one view of a class's state that conversion, comparison and
 * transforms share. The codecs' model (Jackson's view, in machinery-core) is the one a Scheme uses,
 * so that what is converted and compared is what is on the wire; {@link #javaBeans()} serves
 * converters built without the codecs.
 *
 * <p>Implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface PropertyModel {
  /**
   * Returns the properties of a class that can be both read and written, in a stable order.
   *
   * @param type a record or bean class
   * @return the properties; empty when the class has none
   */
  List<Property> properties(Class<?> type);

  /**
   * The Java Beans model: the components of a record, or the public getter/setter pairs of a bean
   * (a getter without a setter is derived, not state).
   *
   * @return the model
   */
  static PropertyModel javaBeans() {
    return JavaBeanProperties.INSTANCE;
  }
}
