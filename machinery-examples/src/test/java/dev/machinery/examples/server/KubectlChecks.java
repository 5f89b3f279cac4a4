package dev.machinery.examples.server;

import dev.machinery.apiserver.testing.Kubectl;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects what a kubectl scenario found wrong, so one run reports every failed step of one kubectl
 * build rather than the first. Not thread-safe: one per scenario.
 */
final class KubectlChecks {
  final List<String> failures = new ArrayList<>();
  final String who;

  KubectlChecks(String who) {
    this.who = who;
  }

  /** Records a failure unless the run exited with the code and printed every text. */
  Kubectl.Result expect(Kubectl.Result result, int exitCode, String... contains) {
    List<String> missing = new ArrayList<>();
    for (String text : contains) {
      if (!result.all().contains(text)) {
        missing.add(text);
      }
    }
    if (result.exitCode() != exitCode || !missing.isEmpty()) {
      failures.add(
          who
              + ": expected exit "
              + exitCode
              + " and "
              + missing
              + ", got exit "
              + result.exitCode()
              + ":\n"
              + result.all());
    }
    return result;
  }

  /** Records a failure if the run printed the text. */
  void absent(Kubectl.Result result, String text) {
    if (result.all().contains(text)) {
      failures.add(who + ": did not expect " + text + " in:\n" + result.all());
    }
  }

  /** Records a failure unless the two are equal. */
  void same(String what, Object expected, Object actual) {
    if (!java.util.Objects.equals(expected, actual)) {
      failures.add(who + ": " + what + ": expected <" + expected + "> but was <" + actual + ">");
    }
  }
}
