import { describe, expect, it } from "vitest";
import { GroupCommit } from "../../src/store/group-commit.js";

describe("GroupCommit", () => {
  it("commits everything added in the same tick in one call", async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number>((items) => {
      batches.push([...items]);
    });
    await Promise.all(Array.from({ length: 200 }, (_, index) => group.add(index)));
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(200);
  });

  it("gives a caller that awaits each add one commit per item, with no timer", async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number>((items) => {
      batches.push([...items]);
    });
    for (let index = 0; index < 5; index++) await group.add(index);
    expect(batches).toEqual([[0], [1], [2], [3], [4]]);
  });

  it("gathers items that arrive while an asynchronous commit is running into the next one", async () => {
    const batches: number[][] = [];
    let release: (() => void) | undefined;
    const group = new GroupCommit<number>(async (items) => {
      batches.push([...items]);
      if (items[0] === 0) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = group.add(0);
    // The first commit starts on a microtask, or after a turn of the event loop when the group
    // commit yields (it does after 5 ms of microtasks, which a loaded machine can reach).
    while (batches.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const later = [1, 2, 3].map((item) => group.add(item));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[0]]);
    expect(group.pending).toBe(4);
    release?.();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[0], [1, 2, 3]]);
    expect(group.pending).toBe(0);
  });

  it("splits a burst larger than the batch limit", async () => {
    const sizes: number[] = [];
    const group = new GroupCommit<number>((items) => {
      sizes.push(items.length);
    }, 64);
    await Promise.all(Array.from({ length: 150 }, (_, index) => group.add(index)));
    expect(sizes).toEqual([64, 64, 22]);
  });

  it("retries a failed batch one item at a time so only the bad item fails", async () => {
    const group = new GroupCommit<number>((items) => {
      if (items.includes(13)) throw new Error("unlucky");
    });
    const results = await Promise.allSettled([12, 13, 14].map((item) => group.add(item)));
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("does the same for an asynchronous commit, and rejects a lone failing item", async () => {
    const group = new GroupCommit<number>(async (items) => {
      if (items.includes(13)) throw new Error("unlucky");
    });
    const results = await Promise.allSettled([12, 13, 14].map((item) => group.add(item)));
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    await expect(group.add(13)).rejects.toThrow("unlucky");
    const sync = new GroupCommit<number>(() => {
      throw new Error("always");
    });
    await expect(sync.add(1)).rejects.toThrow("always");
  });

  it("drains: resolves once nothing is queued or committing", async () => {
    let committed = 0;
    const group = new GroupCommit<number>(async (items) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      committed += items.length;
    });
    await group.drain();
    const adds = [1, 2, 3].map((item) => group.add(item));
    await group.drain();
    expect(committed).toBe(3);
    await Promise.all(adds);
  });

  it("lets a timer fire during a long stream of synchronous commits", async () => {
    const group = new GroupCommit<number>(() => undefined);
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 1);
    let added = 0;
    const adder = async () => {
      while (!fired && added < 2_000_000) await group.add(added++);
    };
    await Promise.all(Array.from({ length: 64 }, adder));
    expect(fired).toBe(true);
    expect(added).toBeLessThan(2_000_000);
  });
  it("waits for an immediate while more items are expected, so items of later microtasks share one commit", async () => {
    const commits: number[][] = [];
    let expected = 3;
    const group: GroupCommit<number> = new GroupCommit<number>(
      (items) => {
        commits.push(items);
      },
      1000,
      () => group.pending < expected,
    );
    const adds = [group.add(1)];
    await Promise.resolve();
    await Promise.resolve();
    adds.push(group.add(2));
    await Promise.resolve();
    adds.push(group.add(3));
    await Promise.all(adds);
    expect(commits).toEqual([[1, 2, 3]]);
    // Nothing more expected: committed after one microtask, as without the hint.
    expected = 0;
    const lone = group.add(4);
    await Promise.resolve();
    await Promise.resolve();
    expect(commits).toEqual([[1, 2, 3], [4]]);
    await lone;
  });
});
