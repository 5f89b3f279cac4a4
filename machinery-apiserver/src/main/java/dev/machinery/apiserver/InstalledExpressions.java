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

  /** Policy expressions whose implementation is made on first use. Thread-safe. */
  private static final class LazyPolicyExpressions implements PolicyExpressions {
    private final ServiceLoader.Provider<PolicyExpressions> provider;
    private volatile PolicyExpressions made;

    LazyPolicyExpressions(ServiceLoader.Provider<PolicyExpressions> provider) {
      this.provider = provider;
    }

    private PolicyExpressions made() {
      PolicyExpressions value = made;
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
    public Expression compile(String expression, ResultType type, Declarations declarations) {
      return made().compile(expression, type, declarations);
    }

    @Override
    public TypeChecker typeChecker(TypeCheckTypes types) {
      return made().typeChecker(types);
    }

    @Override
    public String toString() {
      return provider.type().getName();
    }
  }

  /** Match conditions whose implementation is made on first use. Thread-safe. */
  private static final class LazyMatchConditions implements MatchConditions {
    private final ServiceLoader.Provider<MatchConditions> provider;
    private volatile MatchConditions made;

    LazyMatchConditions(ServiceLoader.Provider<MatchConditions> provider) {
      this.provider = provider;
    }

    private MatchConditions made() {
      MatchConditions value = made;
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
    public Compiled compile(List<Condition> conditions) {
      return made().compile(conditions);
    }

    @Override
    public String toString() {
      return provider.type().getName();
    }
  }
}
