package dev.machinery.apiserver.registry.webhook;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.core.codec.ObjectJson;

/** The JSON mapper of the webhook admission's reviews. */
final class Json {
  static final JsonMapper MAPPER = ObjectJson.mapperBuilder().build();

  private Json() {}
}
