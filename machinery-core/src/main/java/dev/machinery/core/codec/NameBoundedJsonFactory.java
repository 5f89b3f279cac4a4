package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.ByteSourceJsonBootstrapper;
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer;
import java.io.IOException;
import java.io.InputStream;

/**
 * A JSON factory whose table of field names read from bytes is started again once it holds more
 * than {@link #MAX_NAMES} names (see {@link ObjectJson} for why). Parsers of bytes and byte streams
 * are Jackson's own UTF-8 parsers, as {@link JsonFactory} makes them, over children of that table.
 *
 * <p>Thread-safe, as Jackson's factories are: parsers may be made on any threads at once. Two
 * threads that find the table full at once may each start one; a parser's names then go to the one
 * it was made from.
 */
class NameBoundedJsonFactory extends JsonFactory {
  /**
   * The most names the table keeps before it is started again: more than the names of the objects a
   * server reads again and again (a Pod with its managed fields has a few hundred), well under
   * Jackson's own bound (6,000), past which every parse copied a table of thousands.
   */
  static final int MAX_NAMES = 1_000;

  private static final long serialVersionUID = 1L;

  private transient volatile ByteQuadsCanonicalizer names = ByteQuadsCanonicalizer.createRoot();

  NameBoundedJsonFactory(JsonFactoryBuilder builder) {
    super(builder);
  }

  /** A copy of another, with a table of its own. */
  NameBoundedJsonFactory(NameBoundedJsonFactory source) {
    super(source, null);
  }

  /**
   * The table parsers take their children from: the kept one, or a new one when it holds more than
   * {@link #MAX_NAMES} names.
   */
  final ByteQuadsCanonicalizer names() {
    ByteQuadsCanonicalizer current = names;
    if (current.size() > MAX_NAMES) {
      current = ByteQuadsCanonicalizer.createRoot();
      names = current;
    }
    return current;
  }

  /** How many names the kept table holds now, without starting it again; for tests. */
  int namesKept() {
    return names.size();
  }

  @Override
  public JsonFactory copy() {
    return new NameBoundedJsonFactory(this);
  }

  @Override
  protected JsonParser _createParser(InputStream in, IOContext context) throws IOException {
    try {
      return new ByteSourceJsonBootstrapper(context, in)
          .constructParser(
              _parserFeatures, _objectCodec, names(), _rootCharSymbols, _factoryFeatures);
    } catch (IOException | RuntimeException e) {
      if (context.isResourceManaged()) {
        try {
          in.close();
        } catch (Exception closing) {
          e.addSuppressed(closing);
        }
      }
      context.close();
      throw e;
    }
  }

  @Override
  protected JsonParser _createParser(byte[] data, int offset, int length, IOContext context)
      throws IOException {
    _streamReadConstraints.validateDocumentLength(length);
    return new ByteSourceJsonBootstrapper(context, data, offset, length)
        .constructParser(
            _parserFeatures, _objectCodec, names(), _rootCharSymbols, _factoryFeatures);
  }
}
