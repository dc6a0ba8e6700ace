/**
 * Issue #29 "Nothing silent" (rigid bodies): Rapier works in float32, so a size, mass, pose or
 * velocity it cannot hold gave dynamic bodies of mass 0, bodies at Infinity or a crashed
 * engine. Every such input is now refused before Rapier sees it, and the bodies' state is
 * checked after every step.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";

const TET = {
  vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
  indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
};

const URDF = (mass: string) =>
  `<robot name="r"><link name="base"/>` +
  `<link name="arm"><inertial><mass value="${mass}"/>` +
  `<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>` +
  `<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>` +
  `<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>`;

describe("rigid bodies: inputs beyond float32 are refused before the engine sees them", () => {
  it("sizes, masses, densities whose mass or inertia float32 cannot hold", async () => {
    const w = await World.create();
    expect(() => w.addBox({ halfExtents: [1e20, 1e20, 1e20] })).toThrow(
      /World\.addBox: volume \(8e\+60 m³\) must be in \[1\.18e-38, 3\.40e\+38\] m³/,
    );
    expect(() => w.addSphere({ radius: 0.1, mass: 1e300 })).toThrow(
      /World\.addSphere: mass \(1e\+300\) must be in .*float32 .*Infinity/,
    );
    expect(() => w.addSphere({ radius: 0.1, mass: 1e-300 })).toThrow(
      /mass \(1e-300\) must be in .* \(it would become 0 there\)/,
    );
    expect(() => w.addSphere({ radius: 1e-120 })).toThrow(/radius \(1e-120\) must be in/);
    // representable radius, but an inertia float32 rounds to 0
    expect(() => w.addSphere({ radius: 1e-12 })).toThrow(/inertia .* would become 0/);
    expect(() => w.addSphere({ radius: 0.1, density: 1e39 })).toThrow(/density \(1e\+39\)/);
    expect(() => w.addCapsule({ radius: 0.1, halfHeight: 1e39 })).toThrow(/halfHeight/);
    expect(() =>
      w.addCompound({ children: [{ shape: "sphere", radius: 0.1, position: [1e39, 0, 0] }] })
    ).toThrow(/position\[0\] \(1e\+39\)/);
    // static bodies have no mass, but their sizes still go to the engine
    expect(() => w.addBox({ halfExtents: [1e39, 1, 1], bodyType: "static" })).toThrow(
      /halfExtents\[0\] \(1e\+39\)/,
    );
    expect(w.bodies.length).toBe(0);
    // a representable body is still fine and has a positive mass
    expect(w.addSphere({ radius: 0.1, mass: 1e30 }).mass).toBeCloseTo(1e30, -25);
  });

  it("poses and velocities beyond float32", async () => {
    const w = await World.create();
    expect(() => w.addSphere({ radius: 0.1, position: [0, 0, 1e308] })).toThrow(
      /position\[2\] \(1e\+308\) is beyond the float32 range/,
    );
    expect(() => w.addSphere({ radius: 0.1, linearVelocity: [1e39, 0, 0] })).toThrow(
      /linearVelocity\[0\] \(1e\+39\)/,
    );
    expect(() => w.addSphere({ radius: 0.1, angularVelocity: [0, -1e39, 0] })).toThrow(
      /angularVelocity\[1\]/,
    );
    const s = w.addSphere({ radius: 0.1 });
    expect(() => s.setVelocity([0, 0, 1e39])).toThrow(/velocity\[2\] \(1e\+39\)/);
    expect(() => s.setAngularVelocity([0, 0, -1e39])).toThrow(/angularVelocity\[2\]/);
    expect(() => s.setPose([0, 0, 1e300])).toThrow(/position\[2\]/);
    expect(() => s.setExternalForce([1e39, 0, 0])).toThrow(/force\[0\]/);
    expect(() => s.setExternalTorque([1e39, 0, 0])).toThrow(/torque\[0\]/);
    const k = w.addBox({ halfExtents: [0.1, 0.1, 0.1], bodyType: "kinematic" });
    expect(() => k.setKinematicTarget([0, 0, 1e39])).toThrow(/position\[2\]/);
    w.run(2);
    expect(s.linearVelocity[2]).toBeCloseTo(-2 * 9.81e-3, 5);
  });

  it("meshes scaled beyond float32: refused, and the engine stays usable", async () => {
    const w = await World.create();
    expect(() => w.addMesh({ ...TET, scale: 1e30 })).toThrow(/World\.addMesh: volume/);
    expect(() => w.addMesh({ ...TET, scale: 1e13 })).toThrow(/World\.addMesh: inertia/);
    expect(() => w.addMesh({ ...TET, scale: 1e-20 })).toThrow(/would become 0/);
    expect(() => w.addMesh({ ...TET, scale: 1e39, bodyType: "static" })).toThrow(
      /vertices\[3\] \(1e\+39\)/,
    );
    expect(w.bodies.length).toBe(0);
    const ok = w.addMesh({ ...TET, density: 600 });
    expect(ok.mass).toBeCloseTo(100, 4);
    w.run(3); // no RuntimeError: unreachable
    expect(w.stepCount).toBe(3);
  });

  it("a URDF link whose mass float32 cannot hold", async () => {
    const w = await World.create();
    await expect(w.addArticulatedSystem(URDF("1e300"))).rejects.toThrow(
      /World\.addArticulatedSystem: link "arm": mass \(1e\+300 kg\) must be in/,
    );
    await expect(w.addArticulatedSystem(URDF("1e-300"))).rejects.toThrow(/would become 0/);
    expect(w.bodies.length).toBe(0);
    const far = URDF("2").replace(
      '<axis xyz="0 0 1"/>',
      '<origin xyz="0 0 1e39"/><axis xyz="0 0 1"/>',
    );
    await expect(w.addArticulatedSystem(far)).rejects.toThrow(
      /joint "j": origin xyz\[2\] \(1e\+39\) is beyond the float32 range/,
    );
    expect(w.bodies.length).toBe(0);
    const robot = await w.addArticulatedSystem(URDF("2"));
    expect(robot.links[1].mass).toBeCloseTo(2, 6);
  });

  it("a body that leaves the float32 range during a run is named, with the step", async () => {
    const w = await World.create({ timeStep: 1e-3 });
    const dust = w.addSphere({ radius: 1e-3, name: "dust", position: [0, 0, 1] });
    w.run(2);
    dust.setExternalForce([0, 0, 3e38]); // 7e43 m/s² on 4 mg
    expect(() => w.run(5)).toThrow(
      /World\.step: rigid body "dust" \(id 0\) (left|would leave) the float32 range .* at step 3/,
    );
    expect(w.failure?.message).toMatch(/"dust"/);
    expect(() => w.step()).toThrow(/this world failed at step 3/);
  });
});

/** A FIFO (named pipe): reading one blocks until a writer comes, i.e. forever here. */
function fifo(dir: string, name: string): string {
  const path = `${dir}/${name}`;
  const r = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  if (!r.success) throw new Error(`mkfifo ${path} failed`);
  return path;
}

describe("sphere3d and bodies: readers, writers and sizes (issue #29, looking further)", () => {
  const posix = Deno.build.os !== "windows";

  it(
    "readers refuse a FIFO or a folder instead of blocking forever",
    { skip: !posix },
    async () => {
      const dir = Deno.makeTempDirSync();
      const w = await World.create();
      const g = w.addGranularParticles({ positions: [[0, 0, 0]], radii: 0.1 });
      expect(() => g.loadGranularState(fifo(dir, "a.bin"))).toThrow(
        /loadGranularState: .*a\.bin: not a regular file \(a FIFO\)/,
      );
      expect(() => w.loadGranularSystem(dir)).toThrow(/not a regular file \(a directory\)/);
      expect(() => w.addMesh({ file: fifo(dir, "m.obj") })).toThrow(
        /readMeshFile: .*m\.obj: not a regular file \(a FIFO\)/,
      );
      expect(() => w.addMesh({ file: fifo(dir, "m.stl") })).toThrow(TypeError);
      await expect(w.addArticulatedSystem(fifo(dir, "r.urdf"))).rejects.toThrow(
        /readUrdf: cannot read .*r\.urdf: not a regular file \(a FIFO\)/,
      );
      await expect(World.fromXml(fifo(dir, "s.xml"))).rejects.toThrow(/is not a file/);
      // writing over a FIFO or a folder
      await expect(w.exportToXml(`${dir}/s.xml`)).rejects.toThrow(
        /World\.exportToXml: .*s\.xml: not a regular file \(a FIFO\)/,
      );
      await expect(w.exportToXml(dir)).rejects.toThrow(/not a regular file \(a directory\)/);
      expect(Deno.statSync(`${dir}/s.xml`).isFifo).toBe(true); // left as it was
      expect(() => g.saveGranularState(`${dir}/a.bin`)).toThrow(
        /saveGranularState: .*a\.bin: not a regular file \(a FIFO\)/,
      );
      expect(() => g.saveGranularState(dir)).toThrow(/not a regular file \(a directory\)/);
      expect(Deno.statSync(`${dir}/a.bin`).isFifo).toBe(true);
    },
  );

  it("huge meshes and height maps are refused with their size, not a raw allocation error", async () => {
    const w = await World.create();
    expect(() =>
      w.addMesh({ vertices: { length: 2 ** 40 } as ArrayLike<number>, indices: [0, 1, 2] })
    ).toThrow(/World\.addMesh: a mesh with 1099511627776 vertices would need 80\.0 TiB/);
    expect(() => w.addHeightMap({ heights: [], nx: 2 ** 20, ny: 2 ** 20, sizeX: 1, sizeY: 1 }))
      .toThrow(/a height map of 1048576 × 1048576 samples would need/);
    expect(() => w.addHeightMap({ heights: [0, 0, 0, 0], nx: 2, ny: 2, sizeX: 1e39, sizeY: 1 }))
      .toThrow(/sizeX \(1e\+39 m\)/);
    expect(() => w.addHeightMap({ heights: [0, 0, 0, 1e39], nx: 2, ny: 2, sizeX: 1, sizeY: 1 }))
      .toThrow(/heights\[3\] \(1e\+39\)/);
  });

  it("gravity, time step and motor gains the engine cannot hold are refused before a step", async () => {
    const w = await World.create();
    const leg = await w.addArticulatedSystem("examples/assets/leg.urdf");
    expect(() => leg.setPdGains(1e39, 1)).toThrow(/kp \(1e\+39\) is beyond the float32 range/);
    expect(() => leg.setPdTarget([1e39, 0])).toThrow(/q\[0\] \(1e\+39\)/);
    w.gravity = [0, 0, 1e39];
    expect(() => w.step()).toThrow(/World\.step: gravity\[2\] \(1e\+39\) is beyond the float32/);
    w.gravity = [0, 0, -9.81];
    w.timeStep = 1e-300;
    expect(() => w.step()).toThrow(/World\.step: timeStep \(1e-300 s\) must be in/);
    expect(w.failure).toBe(null); // nothing moved: the world goes on
    w.timeStep = 1e-3;
    w.run(2);
    expect(w.stepCount).toBe(2);
  });
});
