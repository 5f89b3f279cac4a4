package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * Jackson factories and mappers for reading API objects' JSON, as the library's codecs read it.
 *
 * <p>Jackson keeps the field names its parsers read from bytes in a table shared by the parsers of
 * one factory, so that a name read again is not decoded again; and each parser that meets a name
 * the table lacks first copies the whole table. API objects carry names without bound: label and
 * annotation keys, a ConfigMap's data keys, and server-side apply's managed fields, whose keys hold
 * values ({@code k:{"ip":"10.1.2.3"}}). With Jackson's own factory the table grew to some thousands
 * of such names (a few thousand Pods read), and from then on every read copied it: a Pod of 4.5 KB
 * cost about 380 KB of allocation and three times the time of a read with a small table. The
 * factories made here start their table again once it holds more than a thousand names, so a read
 * costs about the same however many objects were read before, and names that repeat are still read
 * once.
 *
 * <p>Stateless; the factories and mappers it makes are Jackson's, thread-safe once configured.
 */
public final class ObjectJson {
  private ObjectJson() {}

  /**
   * Makes a JSON factory with the builder's configuration whose table of names is bounded.
   *
   * @param builder the configured builder (limits, features)
   * @return the factory
   */
  public static JsonFactory factory(JsonFactoryBuilder builder) {
    return new NameBoundedJsonFactory(builder);
  }

  /**
   * Starts a JSON mapper over a factory of Jackson's default configuration whose table of names is
   * bounded.
   *
   * @return the builder
   */
  public static JsonMapper.Builder mapperBuilder() {
    return JsonMapper.builder(factory(new JsonFactoryBuilder()));
  }

  /**
   * A Jackson module that writes doubles and floats as the library's codecs write them, as Go's
   * {@code encoding/json} writes a float64: a whole number below 1e21 without a fraction ({@code
   * 2}, not Java's {@code 2.0}), in the shortest digits that read back as the same number; NaN and
   * the infinities, which JSON cannot hold, refused ({@code JsonMappingException}).
   *
   * @return a new module
   */
  public static Module goNumbers() {
    return MachineryModule.addGoNumbers(new SimpleModule("go-numbers"));
  }
}
