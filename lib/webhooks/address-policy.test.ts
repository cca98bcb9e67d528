import { describe, expect, it } from "vitest";
import { checkAddress, checkWebhookUrl, parseIpv4Loose } from "./address-policy";

const refused: [string, string][] = [
  // Loopback in every spelling.
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["2130706433", "loopback"],
  ["0x7f000001", "loopback"],
  ["0x7F.0.0.1", "loopback"],
  ["0177.0.0.1", "loopback"],
  ["0177.0000.0000.0001", "loopback"],
  ["127.1", "loopback"],
  ["127.0.1", "loopback"],
  ["0x7f.1", "loopback"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["0:0:0:0:0:ffff:127.0.0.1", "loopback"],
  ["::127.0.0.1", "loopback"],
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::7f00:1", "loopback"],
  ["2002:7f00:1::", "loopback"],
  // Private, CGNAT, link-local, metadata.
  ["10.0.0.1", "private"],
  ["012.0.0.1", "private"],
  ["167772161", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["0xc0a80101", "private"],
  ["::ffff:192.168.1.1", "private"],
  ["::ffff:c0a8:101", "private"],
  ["64:ff9b::10.1.2.3", "private"],
  ["fc00::1", "private (unique local)"],
  ["fd12:3456::1", "private (unique local)"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.254", "carrier-grade NAT"],
  ["169.254.1.1", "link-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  ["169.254.169.254", "cloud metadata"],
  ["2852039166", "cloud metadata"],
  ["0xa9fea9fe", "cloud metadata"],
  ["0251.0376.0251.0376", "cloud metadata"],
  ["::ffff:169.254.169.254", "cloud metadata"],
  ["::ffff:a9fe:a9fe", "cloud metadata"],
  ["fd00:ec2::254", "cloud metadata"],
  ["100.100.100.200", "cloud metadata"],
  // Multicast, broadcast, unspecified, reserved.
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["0xffffffff", "broadcast"],
  ["0.0.0.0", "this network (0.0.0.0/8)"],
  ["0", "this network (0.0.0.0/8)"],
  ["::", "unspecified"],
  ["::ffff:0.0.0.0", "this network (0.0.0.0/8)"],
  ["240.0.0.1", "reserved"],
  ["192.0.2.1", "reserved (documentation)"],
  ["198.18.0.1", "reserved (benchmarking)"],
  ["2001:db8::1", "reserved (documentation)"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved (Teredo)"],
  ["64:ff9b:1::1", "reserved (local-use NAT64)"],
  ["fec0::1", "reserved (site-local)"],
  ["100::1", "reserved"],
];

const allowed: [string, string][] = [
  ["8.8.8.8", "8.8.8.8"],
  ["1.1.1.1", "1.1.1.1"],
  ["134744072", "8.8.8.8"],
  ["0x08080808", "8.8.8.8"],
  ["172.32.0.1", "172.32.0.1"],
  ["100.128.0.1", "100.128.0.1"],
  ["::ffff:8.8.8.8", "0:0:0:0:0:ffff:808:808"],
  ["64:ff9b::808:808", "64:ff9b:0:0:0:0:808:808"],
  ["2606:4700:4700::1111", "2606:4700:4700:0:0:0:0:1111"],
  ["[2a00:1450:4001:82a::200e]", "2a00:1450:4001:82a:0:0:0:200e"],
];

describe("the webhook address policy", () => {
  it.each(refused)("refuses %s (%s)", (address, reason) => {
    expect(checkAddress(address)).toEqual({ allowed: false, reason });
  });

  it.each(allowed)("allows the public address %s", (address, canonical) => {
    expect(checkAddress(address)).toEqual({ allowed: true, address: canonical });
  });

  it("lets loopback through only when explicitly allowed, and nothing else with it", () => {
    for (const address of ["127.0.0.1", "2130706433", "::1", "::ffff:127.0.0.1"]) {
      expect(checkAddress(address, { allowLoopback: true }).allowed).toBe(true);
    }
    for (const address of ["10.0.0.1", "169.254.169.254", "0.0.0.0", "::"]) {
      expect(checkAddress(address, { allowLoopback: true }).allowed).toBe(false);
    }
  });

  it("is not fooled by names or malformed numbers", () => {
    expect(checkAddress("example.com")).toEqual({ allowed: false, reason: "not an IP address" });
    expect(parseIpv4Loose("256.0.0.1")).toBeNull();
    expect(parseIpv4Loose("1.2.3.4.5")).toBeNull();
    expect(parseIpv4Loose("08.0.0.1")).toBeNull();
    expect(parseIpv4Loose("4294967296")).toBeNull();
    expect(parseIpv4Loose("1.16777216")).toBeNull();
  });

  it("checks webhook URLs: http(s) only, no credentials, literal hosts by the policy", () => {
    expect(checkWebhookUrl("https://hooks.example.com/x")).toBeNull();
    expect(checkWebhookUrl("http://8.8.8.8:8080/x")).toBeNull();
    expect(checkWebhookUrl("ftp://example.com/")).toBe("must be an http(s) URL");
    expect(checkWebhookUrl("file:///etc/passwd")).toBe("must be an http(s) URL");
    expect(checkWebhookUrl("https://user:pw@example.com/")).toBe("must not carry credentials");
    expect(checkWebhookUrl("http://localhost:3000/")).toBe("points at a loopback address");
    expect(checkWebhookUrl("http://api.localhost/")).toBe("points at a loopback address");
    expect(checkWebhookUrl("http://2130706433/")).toBe("points at a loopback address");
    expect(checkWebhookUrl("http://0x7f.1/")).toBe("points at a loopback address");
    expect(checkWebhookUrl("http://[::ffff:169.254.169.254]/")).toBe("points at a cloud metadata address");
    expect(checkWebhookUrl("http://[fd00:ec2::254]/")).toBe("points at a cloud metadata address");
    expect(checkWebhookUrl("http://127.0.0.1:9/", { allowLoopback: true })).toBeNull();
  });
});
