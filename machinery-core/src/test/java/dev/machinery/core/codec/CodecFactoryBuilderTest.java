package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Users add their value types; nothing they add weakens the library's safety settings. */
class CodecFactoryBuilderTest {
  /** A caller's value type, written as "12.50 EUR". */
  public record Money(long cents, String currency) {}

  /** A kind holding one. */
  public static final class Wallet implements ApiObject {
    private String apiVersion;
    private String kind;
    private Money balance;
    private Object extra;

    @Override
    public String getApiVersion() {
      return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
      return kind;
    }

    @Override
    public void setKind(String kind) {
      this.kind = kind;
    }

    public Money getBalance() {
      return balance;
    }

    public void setBalance(Money balance) {
      this.balance = balance;
    }

    public Object getExtra() {
      return extra;
    }

    public void setExtra(Object extra) {
      this.extra = extra;
    }
  }

  private static final Scheme SCHEME =
      Scheme.builder().addKnownTypes(GroupVersion.of("example.com", "v1"), Wallet.class).build();

  private static final JsonSerializer<Money> WRITE =
      new JsonSerializer<>() {
        @Override
        public void serialize(Money value, JsonGenerator gen, SerializerProvider provider)
            throws IOException {
          gen.writeString(
              value.cents() / 100
                  + "."
                  + String.format("%02d", value.cents() % 100)
                  + " "
                  + value.currency());
        }
      };

  private static final JsonDeserializer<Money> READ =
      new JsonDeserializer<>() {
        @Override
        public Money deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
          String[] parts = p.getText().split(" ");
          return new Money(Math.round(Double.parseDouble(parts[0]) * 100), parts[1]);
        }
      };

  @Test
  void valueTypesOfTheCallerAreReadAndWritten() {
    CodecFactory codecs =
        CodecFactory.builder(SCHEME)
            .addSerializer(Money.class, WRITE)
            .addDeserializer(Money.class, READ)
            .build();
    String json =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Wallet\",\"balance\":\"12.50 EUR\"}";
    Wallet wallet = codecs.json().decode(json, Wallet.class).object();
    assertEquals(new Money(1250, "EUR"), wallet.getBalance());
    assertEquals(json, new String(codecs.json().encode(wallet), StandardCharsets.UTF_8));
    assertEquals(
        new Money(1250, "EUR"),
        codecs
            .yaml()
            .decode("apiVersion: example.com/v1\nkind: Wallet\nbalance: 12.50 EUR\n", Wallet.class)
            .object()
            .getBalance());
  }

  /** A module that tries every way to loosen the configuration while it is set up. */
  private static final class Loosening extends SimpleModule {
    private static final long serialVersionUID = 1L;

    Loosening() {
      super("loosening");
    }

    @Override
    public void setupModule(SetupContext context) {
      super.setupModule(context);
      ObjectMapper owner = context.getOwner();
      owner.activateDefaultTyping(
          BasicPolymorphicTypeValidator.builder().allowIfBaseType(Object.class).build(),
          ObjectMapper.DefaultTyping.NON_FINAL);
      owner.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
      context.addDeserializationProblemHandler(
          new DeserializationProblemHandler() {
            @Override
            public boolean handleUnknownProperty(
                DeserializationContext ctxt,
                JsonParser p,
                JsonDeserializer<?> deserializer,
                Object beanOrClass,
                String propertyName)
                throws IOException {
              p.skipChildren();
              return true;
            }
          });
    }
  }

  @Test
  void aModuleCannotLoosenStrictnessOrTyping() {
    CodecFactory codecs = CodecFactory.builder(SCHEME).addModule(new Loosening()).build();
    StrictDecodingException strict =
        assertThrows(
            StrictDecodingException.class,
            () ->
                codecs
                    .json()
                    .decode(
                        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Wallet\",\"balanse\":1}",
                        Wallet.class));
    assertTrue(strict.getMessage().contains("balanse"), strict.getMessage());
    Wallet wallet =
        codecs
            .json()
            .decode(
                "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Wallet\","
                    + "\"extra\":[\"java.net.URL\",\"http://example.com\"]}",
                Wallet.class)
            .object();
    assertEquals(java.util.List.of("java.net.URL", "http://example.com"), wallet.getExtra());
  }

  @Test
  void aModuleThatChangesTheLimitsIsRefused() {
    SimpleModule unlimited =
        new SimpleModule("unlimited") {
          private static final long serialVersionUID = 1L;

          @Override
          public void setupModule(SetupContext context) {
            super.setupModule(context);
            ObjectMapper owner = context.getOwner();
            owner
                .getFactory()
                .setStreamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(1_000_000).build());
          }
        };
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> CodecFactory.builder(SCHEME).addModule(unlimited).build());
    assertTrue(refused.getMessage().contains("limits"), refused.getMessage());
  }
}
