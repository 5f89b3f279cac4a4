package dev.machinery.apiserver.certs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * PEM (RFC 7468) blocks: {@code -----BEGIN TYPE-----}, base64 of DER, {@code -----END TYPE-----},
 * with the RFC 1421 headers ({@code Proc-Type: 4,ENCRYPTED}) that OpenSSL's encrypted traditional
 * keys carry. Stateless and thread-safe.
 */
public final class Pem {
  private Pem() {}

  /**
   * One PEM block.
   *
   * @param type the label, such as {@code CERTIFICATE} or {@code EC PRIVATE KEY}
   * @param headers the RFC 1421 headers before the base64, such as {@code Proc-Type}; mostly empty
   * @param der the decoded bytes
   */
  public record Block(String type, Map<String, String> headers, byte[] der) {
    /**
     * Copies the headers.
     *
     * @param type see the record description
     * @param headers see the record description
     * @param der see the record description
     */
    public Block {
      Objects.requireNonNull(type, "type");
      headers = Map.copyOf(headers);
      Objects.requireNonNull(der, "der");
    }
  }

  /**
   * Encodes one block, base64 in lines of 64 characters as Go's encoding/pem writes them.
   *
   * @param type the label, such as {@code CERTIFICATE}
   * @param der the bytes
   * @return the block's text, ending in a newline
   */
  public static String encode(String type, byte[] der) {
    String base64 = Base64.getEncoder().encodeToString(der);
    StringBuilder text = new StringBuilder("-----BEGIN ").append(type).append("-----\n");
    for (int i = 0; i < base64.length(); i += 64) {
      text.append(base64, i, Math.min(base64.length(), i + 64)).append('\n');
    }
    return text.append("-----END ").append(type).append("-----\n").toString();
  }

  /**
   * Decodes every block of a text, in order; text outside blocks is ignored, as Go's {@code
   * pem.Decode} ignores it.
   *
   * @param text the PEM text
   * @return the blocks, possibly none
   * @throws CertificateDataException when a block has no END line, a mismatched one, or bad base64
   */
  public static List<Block> decode(String text) {
    List<Block> blocks = new ArrayList<>();
    int from = 0;
    while (true) {
      int start = text.indexOf("-----BEGIN ", from);
      if (start < 0) {
        return blocks;
      }
      int labelEnd = text.indexOf("-----", start + 11);
      int lineEnd = text.indexOf('\n', start);
      if (labelEnd < 0 || lineEnd >= 0 && labelEnd > lineEnd) {
        throw new CertificateDataException(
            "PEM block", "", "a PEM BEGIN line does not end in -----");
      }
      String type = text.substring(start + 11, labelEnd);
      String end = "-----END " + type + "-----";
      int stop = text.indexOf(end, labelEnd);
      if (stop < 0) {
        throw new CertificateDataException(
            "PEM block", type, "the PEM block \"" + type + "\" has no line \"" + end + "\"");
      }
      String body = text.substring(labelEnd + 5, stop);
      Map<String, String> headers = new java.util.LinkedHashMap<>();
      StringBuilder base64 = new StringBuilder();
      for (String line : body.split("\r?\n", -1)) {
        int colon = line.indexOf(':');
        if (colon > 0 && base64.length() == 0) {
          headers.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        } else {
          base64.append(line.strip());
        }
      }
      byte[] der;
      try {
        der = Base64.getDecoder().decode(base64.toString());
      } catch (IllegalArgumentException e) {
        throw new CertificateDataException(
            "PEM block",
            type,
            "the PEM block \"" + type + "\" is not valid base64: " + e.getMessage(),
            e);
      }
      blocks.add(new Block(type, headers, der));
      from = stop + end.length();
    }
  }

  /**
   * Decodes the text of a file as US-ASCII, as {@link #decode(String)}.
   *
   * @param bytes the file's bytes
   * @return the blocks, possibly none
   * @throws CertificateDataException as {@link #decode(String)}
   */
  public static List<Block> decode(byte[] bytes) {
    return decode(new String(bytes, StandardCharsets.US_ASCII));
  }
}
