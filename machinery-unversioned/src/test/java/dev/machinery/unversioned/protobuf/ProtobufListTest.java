package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.conversion.ProtoField;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Lists, nested messages and the refusal of a class without field numbers. */
class ProtobufListTest {
  /** {@code v1 ConfigMapList}: metadata 1, items 2, as Kubernetes numbers every list. */
  public static final class ConfigMapList extends TypeMeta {
    private ListMeta metadata;
    private List<CoreV1.ConfigMap> items;

    @ProtoField(1)
    public ListMeta getMetadata() {
      return metadata;
    }

    public void setMetadata(ListMeta metadata) {
      this.metadata = metadata;
    }

    @ProtoField(2)
    public List<CoreV1.ConfigMap> getItems() {
      return items;
    }

    public void setItems(List<CoreV1.ConfigMap> items) {
      this.items = items;
    }
  }

  /** A kind whose class declares no field numbers. */
  public static final class Unnumbered extends TypeMeta {
    private String name;

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }
  }

  private static final Scheme SCHEME =
      MetaV1.addToScheme(Scheme.builder())
          .addKnownTypes(
              GroupVersion.of("", "v1"),
              CoreV1.ConfigMap.class,
              ConfigMapList.class,
              Unnumbered.class)
          .build();
  private static final ProtobufCodec PROTOBUF = ProtobufCodec.create(SCHEME);

  @Test
  void listsRoundTrip() {
    ConfigMapList list = new ConfigMapList();
    ListMeta meta = new ListMeta();
    meta.setResourceVersion("42");
    meta.setContinue("token");
    meta.setRemainingItemCount(7L);
    list.setMetadata(meta);
    CoreV1.ConfigMap first = new CoreV1.ConfigMap();
    ObjectMeta firstMeta = new ObjectMeta();
    firstMeta.setName("a");
    firstMeta.setLabels(Map.of("z", "1", "b", "2"));
    first.setMetadata(firstMeta);
    first.setData(Map.of("k", "v"));
    CoreV1.ConfigMap second = new CoreV1.ConfigMap();
    second.setMetadata(new ObjectMeta());
    second.setImmutable(false);
    list.setItems(List.of(first, second));
    ConfigMapList read = (ConfigMapList) PROTOBUF.decode(PROTOBUF.encode(list)).object();
    assertEquals("42", read.getMetadata().getResourceVersion());
    assertEquals(7L, read.getMetadata().getRemainingItemCount());
    assertEquals(2, read.getItems().size());
    assertEquals(Map.of("z", "1", "b", "2"), read.getItems().get(0).getMetadata().getLabels());
    assertEquals(Boolean.FALSE, read.getItems().get(1).getImmutable());
    assertEquals("v1", read.getApiVersion());
    assertEquals("ConfigMapList", read.getKind());
  }

  @Test
  void aClassWithoutFieldNumbersIsRefused() {
    Unnumbered object = new Unnumbered();
    object.setName("x");
    EncodeException e = assertThrows(EncodeException.class, () -> PROTOBUF.encode(object));
    assertEquals(true, e.getMessage().contains("declares no @ProtoField"), e.getMessage());
  }
}
