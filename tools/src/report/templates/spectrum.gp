set title {{title}}
set logscale x
set xlabel 'percentile'
set ylabel 'latency (ms)'
set xtics ('0%%' 1, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000, '99.999%%' 100000, '99.9999%%' 1000000)
set grid xtics ytics
set key top left
set yrange [0:*]
plot {{plots}}
