package dev.machinery.unversioned.testapi;

public final class Service extends Thing {}
