package dev.machinery.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The build gives every test a time limit (the parent POM's surefire configuration parameters), so
 * a test that hangs fails instead of stalling the build.
 */
class TestTimeLimitTest {
  @RegisterExtension
  static final ParameterResolver CONTEXT =
      new ParameterResolver() {
        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
          return parameter.getParameter().getType() == ExtensionContext.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
          return context;
        }
      };

  @Test
  void everyTestHasATimeLimit(ExtensionContext context) {
    assertEquals(
        "5 m",
        context.getConfigurationParameter("junit.jupiter.execution.timeout.default").orElse(null));
    assertEquals(
        "disabled_on_debug",
        context.getConfigurationParameter("junit.jupiter.execution.timeout.mode").orElse(null));
  }
}
