package dev.machinery.unversioned.testapi;

public final class Pod extends Thing {}
