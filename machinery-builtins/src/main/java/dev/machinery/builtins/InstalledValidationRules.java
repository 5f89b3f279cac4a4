package dev.machinery.builtins;

import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The CEL validation rules found on the class path ({@link ValidationRules#installed()}), made when
 * the first CustomResourceDefinition is checked rather than when the server is built: a CEL
 * environment costs a fresh JVM about a tenth of a second. Which implementation is found is decided
 * at once. Thread-safe.
 */
final class InstalledValidationRules implements ValidationRules {
  private final ServiceLoader.Provider<ValidationRules> provider;
  private volatile ValidationRules made;

  private InstalledValidationRules(ServiceLoader.Provider<ValidationRules> provider) {
    this.provider = provider;
  }

  /** The installed rules, made on first use, or {@link ValidationRules#unsupported()}. */
  static ValidationRules find() {
    return ServiceLoader.load(ValidationRules.class, ValidationRules.class.getClassLoader())
        .stream()
        .findFirst()
        .<ValidationRules>map(InstalledValidationRules::new)
        .orElseGet(ValidationRules::unsupported);
  }

  private ValidationRules made() {
    ValidationRules value = made;
    if (value == null) {
      synchronized (this) {
        value = made;
        if (value == null) {
          value = provider.get();
          made = value;
        }
      }
    }
    return value;
  }

  @Override
  public List<FieldError> check(JSONSchemaProps schema, FieldPath path) {
    return made().check(schema, path);
  }

  @Override
  public Validator compile(JSONSchemaProps schema) {
    return made().compile(schema);
  }

  @Override
  public String toString() {
    return provider.type().getName();
  }
}
