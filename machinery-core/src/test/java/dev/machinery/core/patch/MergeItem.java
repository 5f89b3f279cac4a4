package dev.machinery.core.patch;

import java.util.List;
import java.util.Map;

/**
 * The test type of Kubernetes' strategic merge patch tests, with the same patch strategies and
 * merge keys its struct tags declare, so their tables run against this library unchanged.
 */
public record MergeItem(
    String name,
    String value,
    String other,
    @PatchStrategy("merge") @PatchMergeKey("name") List<MergeItem> mergingList,
    List<MergeItem> nonMergingList,
    @PatchStrategy("merge") List<Integer> mergingIntList,
    List<Integer> nonMergingIntList,
    @PatchStrategy("merge") @PatchMergeKey("name") MergeItem mergeItemPtr,
    Map<String, String> simpleMap,
    @PatchStrategy("replace") Object replacingItem,
    Object jsonItem,
    @PatchStrategy("retainKeys") RetainKeysMergeItem retainKeysMap,
    @PatchStrategy({"merge", "retainKeys"}) @PatchMergeKey("name")
        List<MergeItem> retainKeysMergingList) {

  /** The nested type whose fields the {@code retainKeys} strategy clears. */
  public record RetainKeysMergeItem(
      String name,
      String value,
      String other,
      Map<String, String> simpleMap,
      @PatchStrategy("merge") List<Integer> mergingIntList,
      @PatchStrategy("merge") @PatchMergeKey("name") List<MergeItem> mergingList,
      List<MergeItem> nonMergingList) {}
}
