package dev.machinery.apiserver.registry.webhook;

import com.fasterxml.jackson.databind.json.JsonMapper;

/** The JSON mapper of the webhook admission's reviews. */
final class Json {
  static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Json() {}
}
