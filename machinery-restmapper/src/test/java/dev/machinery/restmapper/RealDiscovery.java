package dev.machinery.restmapper;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The discovery documents of real Kubernetes API servers (test resources, copied unchanged from
 * kubernetes/kubernetes api/discovery, Apache-2.0; see discovery/SOURCE.md).
 */
final class RealDiscovery {
  static final Codec JSON =
      CodecFactory.create(DiscoveryV2.addToScheme(MetaV1.addToScheme(Scheme.builder())).build())
          .json();

  private RealDiscovery() {}

  static byte[] bytes(String name) {
    try (InputStream in = RealDiscovery.class.getResourceAsStream("/discovery/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource discovery/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> names() {
    List<String> names = new ArrayList<>();
    for (String line : new String(bytes("index.txt"), StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        names.add(line.strip());
      }
    }
    return names;
  }

  static APIGroupList groups() {
    return JSON.decode(bytes("apis.json"), APIGroupList.class).object();
  }

  /** /api/v1 and every /apis/{group}/{version} document. */
  static List<APIResourceList> resourceLists() {
    List<APIResourceList> lists = new ArrayList<>();
    for (String name : names()) {
      if (name.equals("api__v1.json") || name.split("__").length == 3) {
        lists.add(JSON.decode(bytes(name), APIResourceList.class).object());
      }
    }
    return lists;
  }

  static DiscoveryRESTMapper legacyMapper() {
    return DiscoveryRESTMapper.fromDiscovery(groups(), resourceLists());
  }

  static APIGroupDiscoveryList aggregated() {
    return JSON.decode(bytes("aggregated_v2.json"), APIGroupDiscoveryList.class).object();
  }
}
