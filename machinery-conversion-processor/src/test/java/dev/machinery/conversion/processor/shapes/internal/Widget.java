package dev.machinery.conversion.processor.shapes.internal;

import dev.machinery.conversion.processor.shapes.meta.Meta;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

public final class Widget {
  private Meta meta;
  private WidgetSpec spec;
  private List<String> tags;
  private Map<String, List<Port>> portsByZone;
  private byte[] checksum;
  private Set<String> owners;
  private boolean enabled;
  private Gadget gadget;
  private List<Gadget> spares;

  public Meta getMeta() {
    return meta;
  }

  public void setMeta(Meta meta) {
    this.meta = meta;
  }

  public WidgetSpec getSpec() {
    return spec;
  }

  public void setSpec(WidgetSpec spec) {
    this.spec = spec;
  }

  public List<String> getTags() {
    return tags;
  }

  public void setTags(List<String> tags) {
    this.tags = tags;
  }

  public Map<String, List<Port>> getPortsByZone() {
    return portsByZone;
  }

  public void setPortsByZone(Map<String, List<Port>> portsByZone) {
    this.portsByZone = portsByZone;
  }

  public byte[] getChecksum() {
    return checksum;
  }

  public void setChecksum(byte[] checksum) {
    this.checksum = checksum;
  }

  public Set<String> getOwners() {
    return owners;
  }

  public void setOwners(Set<String> owners) {
    this.owners = owners;
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Gadget getGadget() {
    return gadget;
  }

  public void setGadget(Gadget gadget) {
    this.gadget = gadget;
  }

  public List<Gadget> getSpares() {
    return spares;
  }

  public void setSpares(List<Gadget> spares) {
    this.spares = spares;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Widget w
        && Objects.equals(meta, w.meta)
        && Objects.equals(spec, w.spec)
        && Objects.equals(tags, w.tags)
        && Objects.equals(portsByZone, w.portsByZone)
        && Arrays.equals(checksum, w.checksum)
        && Objects.equals(owners, w.owners)
        && enabled == w.enabled
        && Objects.equals(gadget, w.gadget)
        && Objects.equals(spares, w.spares);
  }

  @Override
  public int hashCode() {
    return Objects.hash(meta, spec, tags, portsByZone, owners, enabled, gadget, spares);
  }
}
