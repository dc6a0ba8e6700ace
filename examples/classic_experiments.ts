/**
 * Notebook 09 as a script: the classic granular experiments of
 * `@grainlab/grainlab/experiments`, each checked against its law — hopper discharge
 * (Beverloo, in 3D and through a 2D slot, where crosses jam the smallest slot), clogging of a
 * 2D outlet by star grains, the Janssen effect, the angle of repose against rolling friction, the collapse of a column of crosses, Brazil-nut segregation, the
 * force distribution of static packings and restitution against impact speed (Hertz). Writes
 * PNG figures, Arrow tables and `summary.json` (the measured numbers of docs/experiments.md) to
 * `out/classic_experiments/`.
 *
 * Run: `deno run -A examples/classic_experiments.ts` (the CI-size scenes, a few minutes on two
 * cores), `--smoke` (tiny, seconds: figures only, no law is checked at that size), `--full`
 * (the publication-size scenes: hours). Name experiments to run only those, e.g.
 * `deno run -A examples/classic_experiments.ts --full janssen restitution`.
 *
 * @module
 */
import {
  angleOfRepose,
  brazilNut,
  type ExperimentScale,
  forceDistribution,
  hopperDischarge,
  janssenEffect,
  restitutionVsSpeed,
  slotHopper,
  starClogging,
  starColumnCollapse,
  starForceDistribution,
} from "../src/experiments/mod.ts";
import { buildTable, type ColumnSpec, writeArrow } from "../src/arrow/mod.ts";
import { compose, forceNetwork, lines, particles2d, type Series } from "../src/plot/mod.ts";
import { writeFileAtomic } from "../src/math/files.ts";

const scale: ExperimentScale = Deno.args.includes("--smoke")
  ? "smoke"
  : Deno.args.includes("--full")
  ? "full"
  : "ci";
const only = Deno.args.filter((a) => !a.startsWith("--"));
const want = (name: string) => only.length === 0 || only.includes(name);
const OUT = "out/classic_experiments";
await Deno.mkdir(OUT, { recursive: true });
const summary: Record<string, Record<string, number | string | null>> = {};
const files: string[] = [];
const f64 = (v: ArrayLike<number>) => Float64Array.from(v);

async function table(name: string, n: number, columns: ColumnSpec[]): Promise<void> {
  await writeArrow(
    `${OUT}/${name}.arrow`,
    buildTable(name, n, columns, { simulator: "experiments", table: name, extra: { scale } }),
  );
  files.push(`${name}.arrow`);
}
async function save(name: string, fig: { save(path: string): Promise<string> }): Promise<void> {
  await fig.save(`${OUT}/${name}.png`);
  files.push(`${name}.png`);
}
const col = (name: string, values: ArrayLike<number>, unit: string, description: string) => ({
  name,
  type: "float64" as const,
  values: f64(values),
  unit,
  description,
});
const timed = <T>(name: string, run: () => T): T => {
  const t0 = performance.now();
  const r = run();
  console.log(`${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s (${scale})`);
  return r;
};

// 1. Hopper discharge: Beverloo's law
if (want("hopper")) {
  const r = timed("hopper", () => hopperDischarge({ scale }));
  const d = r.diameter, f = r.fit;
  const sweep = r.runs.slice(0, r.orifices.length);
  const Dd = [...r.orifices].map((D) => D / d);
  const curve = linspace(Math.min(...Dd), Math.max(...Dd), 40);
  await save(
    "hopper_discharge",
    compose([
      lines(
        sweep.map((run) => ({
          label: `D = ${(run.orifice / d).toFixed(1)} d`,
          x: run.time,
          y: run.discharged,
        })),
        { title: "Mass discharged", xLabel: "time since opening (s)", yLabel: "mass (kg)" },
      ),
      lines([
        { label: "measured", x: Dd, y: r.flowRates, points: true },
        {
          label: `free fit: exponent ${f.exponent.toFixed(2)} ± ${f.exponentError.toFixed(2)}`,
          x: curve,
          y: curve.map((x) =>
            f.CFree * r.bulkDensity * Math.sqrt(9.81) * Math.max(0, (x - f.kFree) * d) ** f.exponent
          ),
          dash: "5,4",
          color: "#222",
        },
      ], {
        title: "Beverloo: W = C·ρ_b·√g·(D − k·d)^p",
        xLabel: "orifice D / d",
        yLabel: "flow rate W (kg/s)",
        xType: "log",
        yType: "log",
      }),
    ], { title: `Hopper discharge (${scale})` }),
  );
  await table("hopper_rates", r.orifices.length, [
    col("orifice", r.orifices, "m", "orifice diameter D"),
    col("flow_rate", r.flowRates, "kg/s", "steady mass flow rate W"),
    col("flow_rate_error", r.flowRateErrors, "1", "relative standard error of W (batch means)"),
  ]);
  if (r.drainRun) {
    const big = r.drainRun;
    await table("hopper_drain", big.time.length, [
      col("time", big.time, "s", "time since the orifice opened (largest orifice, no recycling)"),
      col("discharged", big.discharged, "kg", "mass discharged"),
      col("fill_height", big.fillHeight, "m", "fill height (twice the grains' mean height)"),
    ]);
  }
  summary.hopper = {
    C: f.C,
    k: f.k,
    r2: f.r2,
    exponentFree: f.exponent,
    exponentError: f.exponentError,
    kFree: f.kFree,
    kFreeError: f.kFreeError,
    CFree: f.CFree,
    exponentAtK15: f.exponentAtReferenceK,
    heightDeviation: r.heightDeviation,
    clogFraction: r.clogFraction,
    clogTrials: r.clogTrials,
    orificeMin: Math.min(...Dd),
    orificeMax: Math.max(...Dd),
    grainsPerRateMin: Math.min(...sweep.map((run) => run.grainsCounted)),
    rateErrorMax: Math.max(...r.flowRateErrors),
  };
}

// 1a. Beverloo in 2D (exponent 3/2) and clogging of the smallest slot: crosses against disks
if (want("hopper2d")) {
  const r = timed("hopper2d", () => slotHopper({ scale }));
  const d = r.diameter, f = r.fit;
  const Dd = [...r.slots].map((D) => D / d);
  const curve = linspace(Math.min(...Dd), Math.max(...Dd), 40);
  const clogSeries = cloggingSeries([r.stars, r.disks]);
  await save(
    "slot_hopper",
    compose([
      lines([
        { label: "disks", x: Dd, y: r.flowRates, points: true },
        {
          label: `free fit: exponent ${f.exponent.toFixed(2)} ± ${f.exponentError.toFixed(2)}`,
          x: curve,
          y: curve.map((x) =>
            f.CFree * r.bulkDensity * Math.sqrt(9.81) * Math.max(0, (x - f.kFree) * d) ** f.exponent
          ),
          dash: "5,4",
          color: "#222",
        },
      ], {
        title: "2D Beverloo: W = C·ρ_b·√g·(D − k·d)^p",
        xLabel: "slot D / d",
        yLabel: "flow rate W (kg/s)",
        xType: "log",
        yType: "log",
      }),
      lines(clogSeries, {
        title: `Slot D = ${Dd[0].toFixed(0)} d: crosses against disks of equal area`,
        xLabel: "time (s)",
        yLabel: "grains passed",
      }),
    ], { title: `Slot hopper (${scale})` }),
  );
  await table("slot_hopper_rates", r.slots.length, [
    col("slot", r.slots, "m", "slot width D"),
    col("flow_rate", r.flowRates, "kg/s", "steady mass flow rate W of the disks"),
    col("flow_rate_error", r.flowRateErrors, "1", "relative standard error of W (batch means)"),
  ]);
  summary.hopper2d = {
    C: f.C,
    k: f.k,
    r2: f.r2,
    exponentFree: f.exponent,
    exponentError: f.exponentError,
    kFree: f.kFree,
    kFreeError: f.kFreeError,
    CFree: f.CFree,
    slotMin: Math.min(...Dd),
    slotMax: Math.max(...Dd),
    starJamFraction: r.stars.jamFraction,
    diskJamFraction: r.disks.jamFraction,
    starMeanPassed: r.stars.meanPassed,
    diskMeanPassed: r.disks.meanPassed,
    clogTrials: r.stars.runs.length,
  };
}

// 1b. Clogging of a 2D outlet: crosses against disks
if (want("clogging")) {
  const r = timed("clogging", () => starClogging({ scale }));
  const series = cloggingSeries([r.stars, r.disks]);
  await save(
    "star_clogging",
    lines(series, {
      title: `Grains through a 3-diameter outlet: crosses against disks of equal area (${scale})`,
      xLabel: "time (s)",
      yLabel: "grains passed",
    }),
  );
  summary.clogging = {
    starJamFraction: r.stars.jamFraction,
    diskJamFraction: r.disks.jamFraction,
    starFlowRate: r.stars.flowRate,
    diskFlowRate: r.disks.flowRate,
    trials: r.stars.runs.length,
  };
}

// 2. Janssen effect
if (want("janssen")) {
  const r = timed("janssen", () => janssenEffect({ scale }));
  const M = r.mass, top = M[M.length - 1];
  const mm = linspace(0, top, 60);
  await save(
    "janssen",
    lines([
      { label: "measured (floor force / g)", x: M, y: r.apparentMass, points: true },
      { label: "hydrostatic", x: [0, top], y: [0, top], dash: "2,3", color: "#999" },
      {
        label: `Janssen fit, λ = ${(r.lambda / 0.01).toFixed(1)} d`,
        x: mm,
        y: mm.map((m) => r.saturationMass * (1 - Math.exp(-m / r.saturationMass))),
        dash: "5,4",
        color: "#222",
      },
    ], {
      title: `Janssen effect: apparent mass against filled mass (${scale})`,
      xLabel: "filled mass M (kg)",
      yLabel: "apparent mass (kg)",
    }),
  );
  await table("janssen", M.length, [
    col("mass", M, "kg", "filled mass"),
    col("fill_height", r.fillHeight, "m", "fill height"),
    col("apparent_mass", r.apparentMass, "kg", "floor force / g"),
  ]);
  summary.janssen = {
    lambdaOverD: r.lambda / 0.01,
    lambdaPredictedOverD: r.lambdaPredicted / 0.01,
    K: r.K,
    mobilisedFriction: r.mobilisedFriction,
    saturationRatio: r.saturationRatio,
    janssenFactor: r.janssenFactor,
    fitRms: r.fitRms,
    heightOverLambda: r.fillHeight[r.fillHeight.length - 1] / r.lambda,
  };
}

// 3. Angle of repose
if (want("repose")) {
  const r = timed("repose", () => angleOfRepose({ scale }));
  const heaps = [...r.rolling, ...r.sliding];
  await save(
    "repose",
    compose([
      lines(
        heaps.map((h) => ({
          label: `μ = ${h.friction}, μr = ${h.rollingFriction}: ${h.angle.toFixed(1)}°`,
          x: h.profile.x,
          y: h.profile.top,
        })),
        { title: "Heap surfaces", xLabel: "x (m)", yLabel: "height (m)" },
      ),
      lines([{
        label: `μ = ${r.rolling[0]?.friction ?? ""}`,
        x: r.rolling.map((h) => h.rollingFriction),
        y: r.rolling.map((h) => h.angle),
        points: true,
      }], { title: "Angle of repose", xLabel: "rolling friction μr", yLabel: "angle (°)" }),
    ], { title: `Angle of repose against rolling resistance (${scale})` }),
  );
  await table("repose", heaps.length, [
    col("friction", heaps.map((h) => h.friction), "1", "sliding friction"),
    col("rolling_friction", heaps.map((h) => h.rollingFriction), "1", "rolling friction"),
    col("angle", heaps.map((h) => h.angle), "deg", "angle of repose (mean of both flanks)"),
  ]);
  summary.repose = Object.fromEntries(
    heaps.map((h) => [`mu${h.friction}_mur${h.rollingFriction}`, h.angle]),
  );
}

// 3b. Column collapse: crosses against disks
if (want("collapse")) {
  const r = timed("collapse", () => starColumnCollapse({ scale }));
  const panel = (p: typeof r.stars) =>
    particles2d(p.packing, {
      title: `${p.method}s: ${p.angle.toFixed(1)}°`,
      width: 560,
      height: 200,
      ...(p.packing.outline ? { outline: () => p.packing.outline } : {}),
    });
  await save(
    "star_collapse",
    compose([panel(r.stars), panel(r.disks)], {
      columns: 1,
      title: `Column collapse: crosses against disks of equal area (${scale})`,
    }),
  );
  summary.collapse = { starAngle: r.stars.angle, diskAngle: r.disks.angle };
}

// 4. Brazil nut
if (want("brazil")) {
  const r = timed("brazil nut", () => brazilNut({ scale }));
  const series: Series[] = [];
  r.runs.forEach((run, k) => {
    const color = ["#4e79a7", "#f28e2c", "#e15759", "#59a14f", "#af7aa1", "#9c755f"][k % 6];
    series.push({
      label: `Γ = ${run.gamma}: intruder top`,
      x: run.cycles,
      y: run.intruderHeight.map((z) => (z + r.intruderRadius) / 0.01),
      color,
    });
    series.push({
      label: `Γ = ${run.gamma}: bed surface`,
      x: run.cycles,
      y: run.bedHeight.map((h) => h / 0.01),
      color,
      dash: "2,3",
    });
  });
  await save(
    "brazil_nut",
    lines(series, {
      title: `Brazil nut: a 3 d intruder in a shaken bed (${scale})`,
      xLabel: "cycles",
      yLabel: "height (d)",
    }),
  );
  const n = r.runs.reduce((s, x) => s + x.cycles.length, 0);
  await table("brazil_nut", n, [
    col("gamma", r.runs.flatMap((x) => [...x.cycles].map(() => x.gamma)), "1", "Γ = Aω²/g"),
    col("cycles", r.runs.flatMap((x) => [...x.cycles]), "1", "time in cycles"),
    col("intruder", r.runs.flatMap((x) => [...x.intruderHeight]), "m", "intruder centre height"),
    col("bed", r.runs.flatMap((x) => [...x.bedHeight]), "m", "bed mean surface height"),
  ]);
  summary.brazilNut = Object.fromEntries(r.runs.map((x) => [`gamma${x.gamma}`, x.riseCycles]));
}

// 5. Force distributions
if (want("forces")) {
  const s = timed("forces (spheres)", () => forceDistribution({ scale }));
  const st = timed("forces (stars, disks)", () => starForceDistribution({ scale }));
  const tailSeries = (label: string, t: typeof s.tail, color: string): Series[] => {
    const x: number[] = [], y: number[] = [];
    t.x.forEach((v, i) => {
      if (t.density[i] > 0) x.push(v), y.push(t.density[i]);
    });
    const a = y[x.findIndex((v) => v > 1)] ?? 1;
    const x1 = x.find((v) => v > 1) ?? 1;
    return [
      { label: `${label} (β = ${t.beta.toFixed(2)})`, x, y, points: true, color },
      {
        label: `${label} fit`,
        x: [x1, 5],
        y: [a, a * Math.exp(-t.beta * (5 - x1))],
        dash: "4,3",
        color,
      },
    ];
  };
  await save(
    "force_distribution",
    compose([
      lines([
        ...tailSeries("spheres", s.tail, "#4e79a7"),
        ...tailSeries("crosses", st.stars.tail, "#e15759"),
        ...tailSeries("disks", st.disks.tail, "#59a14f"),
      ], {
        title: "P(f/⟨f⟩)",
        xLabel: "f / ⟨f⟩ (mean at the same depth)",
        yLabel: "probability density",
        yType: "log",
      }),
      forceNetwork(st.stars.packing, {
        title: "Crosses: force network",
        outline: () => st.stars.packing.outline,
        width: 360,
        height: 360,
      }),
      forceNetwork(s.packing, { title: "Spheres (side view)", width: 300, height: 360 }),
    ], { title: `Normal-force distributions of static packings (${scale})` }),
  );
  await table("forces", s.forces.length + st.stars.forces.length + st.disks.forces.length, [
    {
      name: "packing",
      type: "float64",
      values: f64([
        ...[...s.forces].map(() => 3),
        ...[...st.stars.forces].map(() => 2),
        ...[...st.disks.forces].map(() => 1),
      ]),
      unit: "1",
      description: "3 spheres, 2 star grains, 1 disks",
    },
    col("f", [...s.forces, ...st.stars.forces, ...st.disks.forces], "1", "f / ⟨f⟩ at its depth"),
  ]);
  summary.forces = {
    betaSpheres: s.tail.beta,
    betaSpheresError: s.tail.betaError,
    betaStars: st.stars.tail.beta,
    betaStarsError: st.stars.tail.betaError,
    betaDisks: st.disks.tail.beta,
    betaDisksError: st.disks.tail.betaError,
  };
}

// 6. Restitution and contact time against impact speed
if (want("restitution")) {
  const r = timed("restitution", () => restitutionVsSpeed({ scale }));
  const colors = ["#4e79a7", "#e15759", "#59a14f", "#f28e2c"];
  await save(
    "restitution",
    compose([
      lines(
        r.series.flatMap((s, k) => [
          { label: s.model, x: r.speeds, y: s.restitution, points: true, color: colors[k] },
          {
            label: `${s.model} reference`,
            x: r.speeds,
            y: s.referenceRestitution,
            dash: "4,3",
            color: colors[k],
          },
        ]),
        {
          title: "Restitution",
          xLabel: "impact speed (m/s)",
          yLabel: "e",
          xType: "log",
          yDomain: [0.6, 1.02],
        },
      ),
      lines(
        r.series.map((s, k) => ({
          label: `${s.model}: t ∝ v^${s.timeFit.exponent.toFixed(3)}`,
          x: r.speeds,
          y: s.contactTime.map((t) => t * 1e6),
          points: true,
          color: colors[k],
        })),
        {
          title: "Contact time",
          xLabel: "impact speed (m/s)",
          yLabel: "contact time (µs)",
          xType: "log",
          yType: "log",
        },
      ),
    ], { title: `Restitution and contact time against impact speed (${scale})` }),
  );
  await table(
    "restitution",
    r.speeds.length * r.series.length,
    [
      col("speed", r.series.flatMap(() => [...r.speeds]), "m/s", "impact speed"),
      col(
        "model",
        r.series.flatMap((_, k) => [...r.speeds].map(() => k)),
        "1",
        r.series.map((s, k) => `${k} ${s.model}`).join(", "),
      ),
      col("restitution", r.series.flatMap((s) => [...s.restitution]), "1", "measured e"),
      col(
        "contact_time",
        r.series.flatMap((s) => [...s.contactTime]),
        "s",
        "measured contact time",
      ),
      col(
        "reference_restitution",
        r.series.flatMap((s) => [...s.referenceRestitution]),
        "1",
        "analytic or RK4 e",
      ),
    ],
  );
  summary.restitution = {
    elasticTimeExponent: r.elasticTimeExponent,
    elasticTimeError: r.elasticTimeError,
    viscousRestitutionError: r.viscousRestitutionError,
    viscousEmin: Math.min(...r.series[1].restitution),
    viscousEmax: Math.max(...r.series[1].restitution),
    linearRestitutionSpread: r.linearRestitutionSpread,
    linearTimeSpread: r.linearTimeSpread,
    linearRestitutionError: r.linearRestitutionError,
    hertzRestitutionSpread: r.hertzRestitutionSpread,
  };
}

await writeFileAtomic(
  `${OUT}/summary_${scale}.json`,
  new TextEncoder().encode(JSON.stringify({ scale, summary }, null, 2) + "\n"),
);
console.log(JSON.stringify(summary, null, 2));
console.log(`Figures and data in ${OUT}/: ${files.join(", ")}, summary_${scale}.json`);

/** Grains through the outlet over time, one line per run, crosses red and disks blue. */
function cloggingSeries(
  sets: {
    method: string;
    runs: { seed: number; jammed: boolean; time: ArrayLike<number>; passed: ArrayLike<number> }[];
  }[],
): Series[] {
  const out: Series[] = [];
  for (const s of sets) {
    s.runs.forEach((run, k) =>
      out.push({
        label: `${s.method}s, seed ${run.seed}${run.jammed ? " (jammed)" : ""}`,
        x: run.time,
        y: run.passed,
        color: s.method === "star" ? "#e15759" : "#4e79a7",
        dash: k > 0 ? "4,3" : undefined,
      })
    );
  }
  return out;
}

function linspace(a: number, b: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
}
