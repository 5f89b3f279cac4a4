package dev.machinery.core.codec.yaml;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.core.base.ParserMinimalBase;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.core.json.JsonReadContext;
import dev.machinery.core.codec.LimitExceededException;
import dev.machinery.core.internal.FieldPaths;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A Jackson parser over one YAML document's {@link YamlNode} tree. Scalars keep their original text
 * ({@code 1.10} stays {@code "1.10"} when bound to a string) while numbers and booleans arrive as
 * JSON tokens. Iterative; nesting is checked against the depth limit. Confined to the decoding
 * thread.
 */
public final class YamlTreeParser extends ParserMinimalBase {
  private static final class Frame {
    final YamlNode node;
    int next;

    Frame(YamlNode node) {
      this.node = node;
    }
  }

  private final int maxDepth;
  private final Deque<Frame> stack = new ArrayDeque<>();
  private YamlNode pendingRoot;
  private JsonReadContext context = JsonReadContext.createRootContext(null);
  private YamlNode.Scalar scalar;
  private YamlNode current;
  private ObjectCodec codec;
  private boolean closed;

  /**
   * A parser over one document.
   *
   * @param root the document's root node
   * @param maxDepth the deepest nesting allowed
   */
  public YamlTreeParser(YamlNode root, int maxDepth) {
    super(com.fasterxml.jackson.core.StreamReadConstraints.defaults());
    this.pendingRoot = root;
    this.maxDepth = maxDepth;
  }

  @Override
  public JsonToken nextToken() throws java.io.IOException {
    scalar = null;
    if (pendingRoot != null) {
      YamlNode root = pendingRoot;
      pendingRoot = null;
      return enter(root);
    }
    Frame top = stack.peek();
    if (top == null) {
      return _currToken = null;
    }
    if (top.node instanceof YamlNode.Mapping) {
      YamlNode.Mapping mapping = (YamlNode.Mapping) top.node;
      if (_currToken == JsonToken.FIELD_NAME) {
        return enter(mapping.values.get(top.next++));
      }
      if (top.next < mapping.keys.size()) {
        context.expectComma();
        context.setCurrentName(mapping.keys.get(top.next));
        current = mapping;
        return _currToken = JsonToken.FIELD_NAME;
      }
      stack.pop();
      context = context.clearAndGetParent();
      current = mapping;
      return _currToken = JsonToken.END_OBJECT;
    }
    YamlNode.Sequence sequence = (YamlNode.Sequence) top.node;
    if (top.next < sequence.items.size()) {
      context.expectComma();
      return enter(sequence.items.get(top.next++));
    }
    stack.pop();
    context = context.clearAndGetParent();
    current = sequence;
    return _currToken = JsonToken.END_ARRAY;
  }

  private JsonToken enter(YamlNode node) throws JsonParseException {
    current = node;
    if (node instanceof YamlNode.Scalar) {
      scalar = (YamlNode.Scalar) node;
      return _currToken = scalar.token;
    }
    if (stack.size() >= maxDepth) {
      throw new LimitExceededException(
          "maxNestingDepth",
          maxDepth,
          "the document nests deeper than " + maxDepth + " levels (after alias expansion)",
          FieldPaths.of(context),
          node.line,
          node.column);
    }
    stack.push(new Frame(node));
    if (node instanceof YamlNode.Mapping) {
      context = context.createChildObjectContext(node.line, node.column);
      return _currToken = JsonToken.START_OBJECT;
    }
    context = context.createChildArrayContext(node.line, node.column);
    return _currToken = JsonToken.START_ARRAY;
  }

  @Override
  protected void _handleEOF() {
    // Tree input cannot end early.
  }

  @Override
  @Deprecated
  public String getCurrentName() {
    return currentName();
  }

  @Override
  public String currentName() {
    if (_currToken == JsonToken.START_OBJECT || _currToken == JsonToken.START_ARRAY) {
      JsonStreamContext parent = context.getParent();
      return parent == null ? null : parent.getCurrentName();
    }
    return context.getCurrentName();
  }

  @Override
  public void overrideCurrentName(String name) {
    try {
      context.setCurrentName(name);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("no duplicate detection is configured", e);
    }
  }

  @Override
  public JsonStreamContext getParsingContext() {
    return context;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public String getText() {
    if (_currToken == null) {
      return null;
    }
    switch (_currToken) {
      case FIELD_NAME:
        return context.getCurrentName();
      case START_OBJECT:
      case END_OBJECT:
      case START_ARRAY:
      case END_ARRAY:
        return _currToken.asString();
      default:
        return scalar == null ? null : scalar.text;
    }
  }

  @Override
  public char[] getTextCharacters() {
    String text = getText();
    return text == null ? null : text.toCharArray();
  }

  @Override
  public boolean hasTextCharacters() {
    return false;
  }

  @Override
  public int getTextLength() {
    String text = getText();
    return text == null ? 0 : text.length();
  }

  @Override
  public int getTextOffset() {
    return 0;
  }

  @Override
  public byte[] getBinaryValue(Base64Variant variant) throws JsonParseException {
    throw _constructError("binary values are not supported in YAML input");
  }

  @Override
  public ObjectCodec getCodec() {
    return codec;
  }

  @Override
  public void setCodec(ObjectCodec codec) {
    this.codec = codec;
  }

  @Override
  public Version version() {
    return Version.unknownVersion();
  }

  @Override
  public JsonLocation currentLocation() {
    return location();
  }

  @Override
  public JsonLocation currentTokenLocation() {
    return location();
  }

  @Override
  @Deprecated
  public JsonLocation getCurrentLocation() {
    return location();
  }

  @Override
  @Deprecated
  public JsonLocation getTokenLocation() {
    return location();
  }

  private JsonLocation location() {
    int line = current == null ? 0 : current.line;
    int column = current == null ? 0 : current.column;
    return new JsonLocation(ContentReference.unknown(), -1L, line, column);
  }

  private Number number() throws JsonParseException {
    if (scalar == null || scalar.number == null) {
      throw _constructError("current token (" + _currToken + ") is not numeric");
    }
    return scalar.number;
  }

  @Override
  public Number getNumberValue() throws JsonParseException {
    return number();
  }

  @Override
  public NumberType getNumberType() throws JsonParseException {
    if (scalar == null || scalar.number == null) {
      return null;
    }
    Number n = scalar.number;
    if (n instanceof Integer) {
      return NumberType.INT;
    }
    if (n instanceof Long) {
      return NumberType.LONG;
    }
    if (n instanceof BigInteger) {
      return NumberType.BIG_INTEGER;
    }
    return NumberType.DOUBLE;
  }

  @Override
  public int getIntValue() throws java.io.IOException {
    Number n = number();
    if (n instanceof Integer) {
      return n.intValue();
    }
    if (_currToken == JsonToken.VALUE_NUMBER_INT) {
      throw new InputCoercionException(
          this,
          "numeric value "
              + dev.machinery.core.internal.Text.quote(scalar.text)
              + " is out of range of int",
          JsonToken.VALUE_NUMBER_INT,
          Integer.TYPE);
    }
    return n.intValue();
  }

  @Override
  public long getLongValue() throws java.io.IOException {
    Number n = number();
    if (n instanceof BigInteger) {
      throw new InputCoercionException(
          this,
          "numeric value "
              + dev.machinery.core.internal.Text.quote(scalar.text)
              + " is out of range of long",
          JsonToken.VALUE_NUMBER_INT,
          Long.TYPE);
    }
    return n.longValue();
  }

  @Override
  public BigInteger getBigIntegerValue() throws JsonParseException {
    Number n = number();
    if (n instanceof BigInteger) {
      return (BigInteger) n;
    }
    if (_currToken == JsonToken.VALUE_NUMBER_FLOAT) {
      return getDecimalValue().toBigInteger();
    }
    return BigInteger.valueOf(n.longValue());
  }

  @Override
  public float getFloatValue() throws JsonParseException {
    return number().floatValue();
  }

  @Override
  public double getDoubleValue() throws JsonParseException {
    return number().doubleValue();
  }

  @Override
  public BigDecimal getDecimalValue() throws JsonParseException {
    Number n = number();
    if (n instanceof BigInteger) {
      return new BigDecimal((BigInteger) n);
    }
    if (n instanceof Integer || n instanceof Long) {
      return BigDecimal.valueOf(n.longValue());
    }
    if (!Double.isFinite(n.doubleValue())) {
      throw _constructError(
          "the value "
              + dev.machinery.core.internal.Text.quote(scalar.text)
              + " is not a finite number");
    }
    return new BigDecimal(scalar.text);
  }

  @Override
  public Object getEmbeddedObject() {
    return null;
  }
}
