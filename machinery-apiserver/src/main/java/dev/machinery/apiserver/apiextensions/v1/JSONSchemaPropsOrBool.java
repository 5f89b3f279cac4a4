package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.io.IOException;

/**
 * A schema or a boolean ({@code JSONSchemaPropsOrBool}), as {@code additionalProperties} and {@code
 * additionalItems} hold: {@code true} allows anything, {@code false} nothing, a schema what it
 * describes. Immutable.
 *
 * @param allows the boolean; true when a schema is given
 * @param schema the schema, or {@code null} for a boolean
 */
@JsonDeserialize(using = JSONSchemaPropsOrBool.Reader.class)
public record JSONSchemaPropsOrBool(boolean allows, JSONSchemaProps schema) {

  /**
   * Writes the JSON form.
   *
   * @return a boolean or the schema
   */
  @JsonValue
  public Object toJson() {
    return schema != null ? schema : Boolean.valueOf(allows);
  }

  /** Reads a boolean or a schema object with the caller's Jackson configuration. */
  static final class Reader extends JsonDeserializer<JSONSchemaPropsOrBool> {
    @Override
    public JSONSchemaPropsOrBool deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      JsonToken token = parser.currentToken();
      if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
        return new JSONSchemaPropsOrBool(token == JsonToken.VALUE_TRUE, null);
      }
      if (token != JsonToken.START_OBJECT) {
        return (JSONSchemaPropsOrBool)
            context.handleUnexpectedToken(
                JSONSchemaPropsOrBool.class,
                token,
                parser,
                "expected a boolean or a schema object, got %s",
                token);
      }
      return new JSONSchemaPropsOrBool(true, context.readValue(parser, JSONSchemaProps.class));
    }
  }
}
