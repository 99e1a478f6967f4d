// .hgrm: HdrHistogram's percentile distribution text, in milliseconds, readable by
// the HdrHistogram plotter (hdrhistogram.github.io/HdrHistogram/plotFiles.html).
export function toHgrm(hist) {
  return hist.outputPercentileDistribution(5, 1000);
}
