package dev.machinery.client.config;

import java.util.Optional;

/** Credentials that never change: none, a bearer token, basic authentication. Immutable. */
final class StaticCredentials implements CredentialSource {
  static final StaticCredentials NONE = new StaticCredentials(null, "no credentials");

  private final Optional<String> authorization;
  private final String description;

  StaticCredentials(String authorization, String description) {
    this.authorization = Optional.ofNullable(authorization);
    this.description = description;
  }

  @Override
  public Optional<String> authorization() {
    return authorization;
  }

  @Override
  public boolean invalidate() {
    // Nothing to refresh.
    return false;
  }

  @Override
  public String toString() {
    return description;
  }
}
