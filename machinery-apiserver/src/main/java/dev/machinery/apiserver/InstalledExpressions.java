package dev.machinery.apiserver;

import dev.machinery.apiserver.admission.policy.PolicyExpressions;
import dev.machinery.apiserver.admission.webhook.MatchConditions;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The CEL implementations found on the class path ({@link PolicyExpressions#installed()}, {@link
 * MatchConditions#installed()}), made when a server first compiles an expression rather than when
 * it is built: a CEL environment costs a fresh JVM about a tenth of a second, and most servers (a
 * test's, say) compile none. Which implementation is found is decided at once, so a server without
 * one behaves from the start as it did.
 */
final class InstalledExpressions {
  private InstalledExpressions() {}

  /** The installed policy expressions, made on first use, or the unsupported ones. */
  static PolicyExpressions policyExpressions() {
    return ServiceLoader.load(PolicyExpressions.class, PolicyExpressions.class.getClassLoader())
        .stream()
        .findFirst()
        .<PolicyExpressions>map(LazyPolicyExpressions::new)
        .orElseGet(PolicyExpressions::unsupported);
  }

  /** The installed match conditions, made on first use, or empty. */
  static Optional<MatchConditions> matchConditions() {
    return ServiceLoader.load(MatchConditions.class, MatchConditions.class.getClassLoader())
        .stream()
        .findFirst()
        .map(LazyMatchConditions::new);
  }

  /** A provider's instance, made on first use. Thread-safe. */
  private static final class Made<T> {
    private final ServiceLoader.Provider<T> provider;
    private volatile T made;

    Made(ServiceLoader.Provider<T> provider) {
      this.provider = provider;
    }

    T get() {
      T value = made;
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
    public String toString() {
      return provider.type().getName();
    }
  }

  /** Policy expressions whose implementation is made on first use. Thread-safe. */
  private static final class LazyPolicyExpressions implements PolicyExpressions {
    private final Made<PolicyExpressions> made;

    LazyPolicyExpressions(ServiceLoader.Provider<PolicyExpressions> provider) {
      this.made = new Made<>(provider);
    }

    @Override
    public Expression compile(String expression, ResultType type, Declarations declarations) {
      return made.get().compile(expression, type, declarations);
    }

    @Override
    public TypeChecker typeChecker(TypeCheckTypes types) {
      return made.get().typeChecker(types);
    }

    @Override
    public String toString() {
      return made.toString();
    }
  }

  /** Match conditions whose implementation is made on first use. Thread-safe. */
  private static final class LazyMatchConditions implements MatchConditions {
    private final Made<MatchConditions> made;

    LazyMatchConditions(ServiceLoader.Provider<MatchConditions> provider) {
      this.made = new Made<>(provider);
    }

    @Override
    public Compiled compile(List<Condition> conditions) {
      return made.get().compile(conditions);
    }

    @Override
    public String toString() {
      return made.toString();
    }
  }
}
